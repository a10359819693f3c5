import CanonicalJSON
import FeatureKit
import Foundation
import Testing

/// The replay protocol for a feature of no app's: the registry and the stdio server.
@Suite struct ReplayRegistryTests {
  @Test func aRequestIsAnsweredWithTheStateTheEffectsAndTheOutcome() {
    let request = #"{"action":{"reset":{}},"feature":"resetting","state":{"count":3,"log":[]}}"#
    #expect(
      Counter.registry.answer(toLine: Array(request.utf8))
        == #"{"effects":[{"logged":"reset from 3"}],"outcome":{},"state":{"count":0,"log":["reset from 3"]}}"#)
  }

  @Test func anActionTheFeatureDoesNotTakeIsAnErrorAtItsPath() {
    let request = #"{"action":{"reset":{}},"feature":"counting","state":{"count":3,"log":[]}}"#
    #expect(
      Counter.registry.answer(toLine: Array(request.utf8))
        == #"{"error":{"path":"action","reason":"feature 'counting' takes increment, add; not 'reset'"}}"#)
  }

  @Test func anUnknownFeatureAndABadStateAreErrorsAtTheirPaths() {
    let unknown = #"{"action":{"increment":{}},"feature":"flying","state":{"count":0,"log":[]}}"#
    #expect(Counter.registry.answer(toLine: Array(unknown.utf8)).contains(#""path":"feature""#))
    let bad = #"{"action":{"increment":{}},"feature":"counting","state":{"count":"zero","log":[]}}"#
    #expect(
      Counter.registry.answer(toLine: Array(bad.utf8))
        == #"{"error":{"path":"state.count","reason":"expected Int"}}"#)
  }

  @Test func theServerAnswersEachLineInOrderAndSkipsBlankOnes() throws {
    let requests = Pipe()
    let answers = Pipe()
    let lines = [
      #"{"action":{"increment":{}},"feature":"counting","state":{"count":1,"log":[]}}"#, "  ",
      #"{"action":{"add":{"amount":0}},"feature":"counting","state":{"count":1,"log":[]}}"#, "not json",
    ]
    requests.fileHandleForWriting.write(Data(lines.joined(separator: "\n").utf8))
    try requests.fileHandleForWriting.close()
    ReplayServer(registry: Counter.registry).run(
      input: requests.fileHandleForReading.fileDescriptor, output: answers.fileHandleForWriting.fileDescriptor)
    try answers.fileHandleForWriting.close()
    let output = String(decoding: answers.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let answered = output.split(separator: "\n").map(String.init)
    #expect(answered.count == 3)
    #expect(answered[0] == #"{"effects":[],"outcome":{},"state":{"count":2,"log":[]}}"#)
    #expect(
      answered[1] == #"{"effects":[],"outcome":{"refused":"add a positive amount"},"state":{"count":1,"log":[]}}"#)
    #expect(answered[2].hasPrefix(#"{"error":"#))
  }
}
