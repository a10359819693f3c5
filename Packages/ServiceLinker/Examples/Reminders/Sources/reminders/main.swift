import CanonicalJSON
import DurableStore
import Foundation
import Reminders

// The reminders app on a durable store: `reminders --journal FILE --outbox FILE COMMAND`.
//
//   set TITLE SECONDS   sets a reminder (journaled when the command returns)
//   dismiss TITLE       dismisses one
//   undo                undoes the last set or dismiss
//   run                 runs until every reminder has rung and been shown
//   list                prints the state as canonical JSON, read without the journal's lock
//   drive FROM TO       sets r<FROM> … r<TO-1> due at once, printing "acked r<N>" after each is
//                       journaled, then waits for every notification and prints "done"
//                       (what the SIGKILL test runs)

/// Exits 64 with `message` on standard error.
func usage(_ message: String) -> Never {
  FileHandle.standardError.write(Data("reminders: \(message)\n".utf8))
  exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var options: [String: String] = [:]
while let flag = arguments.first, flag.hasPrefix("--") {
  guard arguments.count >= 2 else { usage("\(flag) needs a value") }
  options[String(flag.dropFirst(2))] = arguments[1]
  arguments.removeFirst(2)
}
guard let journal = options["journal"], let outbox = options["outbox"] else {
  usage("usage: reminders --journal FILE --outbox FILE set|dismiss|undo|run|list|drive …")
}
guard let command = arguments.first else { usage("no command: set, dismiss, undo, run, list or drive") }
let operands = Array(arguments.dropFirst())

if command == "list" {
  do {
    let snapshot = try DurableStore<Reminders>.read(at: journal, initial: Reminders.State())
    print(snapshot.state.canonical.compactText)
    exit(0)
  } catch { usage("cannot read \(journal): \(error)") }
}

let environment = Reminders.Environment(clock: ContinuousClock(), notifier: OutboxNotifier(path: outbox))
let store: DurableStore<Reminders>
do { store = try DurableStore<Reminders>.open(at: journal, initial: Reminders.State(), environment: environment) } catch
{
  FileHandle.standardError.write(Data("reminders: cannot open \(journal): \(error)\n".utf8))
  exit(74)
}

/// Sends `action`, exiting 74 when it cannot be journaled and 64 (with the reason) when the feature refuses it.
@MainActor func send(_ action: Reminders.Action) {
  do {
    let result = try store.send(action)
    if let refused = result.outcome.refused { usage(refused) }
  } catch {
    // A step fed back (a ring, a notification's outcome) may have been the one that failed: say why.
    let cause = store.failure.map { $0 == error ? "" : " (\($0))" } ?? ""
    FileHandle.standardError.write(Data("reminders: \(error)\(cause)\n".utf8))
    exit(74)
  }
}

switch (command, operands.count) {
case ("set", 2):
  guard let seconds = Int(operands[1]) else { usage("SECONDS must be a whole number: '\(operands[1])'") }
  send(.set(title: operands[0], seconds: seconds))
case ("dismiss", 1): send(.dismiss(title: operands[0]))
case ("undo", 0):
  do { if try store.undo() == nil { usage("nothing to undo") } } catch { usage("\(error)") }
case ("drive", 2):
  guard let from = Int(operands[0]), let to = Int(operands[1]), from <= to else { usage("drive FROM TO: two numbers") }
  for index in from..<to {
    let title = "r\(index)"
    // Set by a run killed after journaling it, before saying so: it is there, once.
    if !store.state.rung.contains(title), !store.state.pending.contains(where: { $0.title == title }) {
      send(.set(title: title, seconds: 0))
    }
    // Unbuffered: a line printed is a step acknowledged, even if the process is killed next.
    FileHandle.standardOutput.write(Data("acked \(title)\n".utf8))
    await Task.yield()
  }
case ("run", 0): break
default: usage("unknown command or wrong operands: \(command) \(operands.joined(separator: " "))")
}
if command == "run" || command == "drive" {
  await store.finish()
  print(command == "drive" ? "done" : store.state.canonical.compactText)
} else {
  // A timer or a notification in flight stops here: the next run starts the
  // timer again and asks the notifier what became of the notification.
  await store.cancelAll()
}
