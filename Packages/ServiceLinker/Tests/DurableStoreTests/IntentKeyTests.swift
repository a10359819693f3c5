import DurableStore
import Journal
import Testing

/// Tea whose intents carry keys of its own form, `k_<salt>_<sequence>_<tea>`,
/// as a feature needs whose service already knows keys of another form.
enum NamedTea: TeaVariant {
  static func key(for request: Request, salt: UInt64, sequence: UInt64, index: Int) -> IntentKey {
    IntentKey(text: "k_\(String(salt, radix: 16))_\(sequence)_\(request.charge)")
  }
}

@MainActor @Suite struct IntentKeyTests {
  @Test func anIntentCarriesTheKeyTheFeatureNamesToItsServiceAndAfterACrash() async throws {
    let till = try Till()
    till.stop { if case .afterPerform = $0 { true } else { false } }
    var store: DurableStore<NamedTea>? = try till.open(as: NamedTea.self)
    try store?.send(.order("sencha"))
    let key = try #require(store?.openIntents.first?.key)
    let salt = try DurableJournal.read(path: till.path).salt
    #expect(key.text == "k_\(String(salt, radix: 16))_1_sencha")
    await store?.finish()
    store = nil
    #expect(till.cards.wasCharged(key), "the service was asked under the feature's key")

    // Opening again replays the record (its key computed again and found the
    // same) and asks the service under that key: charged once.
    till.options.crashSeam = nil
    let reopened = try till.open(as: NamedTea.self)
    await reopened.finish()
    #expect(till.cards.charges == ["sencha"])
    #expect(reopened.state.charged == ["sencha"])
    #expect(reopened.openIntents.isEmpty)
  }

  @Test func aJournalWhoseKeysTheFeatureNamesOtherwiseNowIsRefusedWithTheRecord() async throws {
    let till = try Till()
    till.cards.hang(true)
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("genmaicha"))
    await store?.cancelAll()
    store = nil
    // The same journal read by a feature whose keys differ: replay names the record.
    #expect {
      _ = try till.open(as: NamedTea.self)
    } throws: { error in
      guard case DurableStoreError.replay(let sequence, let reason) = error else { return false }
      return sequence == 1 && reason.contains("k_")
    }
  }
}

/// Tea whose every intent has the same key: a wrong key function.
enum ClashingTea: TeaVariant {
  static func key(for request: Request, salt: UInt64, sequence: UInt64, index: Int) -> IntentKey {
    IntentKey(text: "same")
  }
}

@MainActor @Suite struct IntentKeyClashTests {
  @Test func aJournalHoldingTwoOpenIntentsUnderOneKeyIsRefusedOnOpenNotCrashedOn() throws {
    let till = try Till()
    do {
      var journal = try DurableJournal(path: till.path)
      for tea in ["a", "b"] {
        var framed = JournalFormat.reservedFrame
        CanonicalDurableFormat<ClashingTea>.writeRecord(
          .sent, .order(tea), [Intent(key: IntentKey(text: "same"), request: Tea.Request(charge: tea))], result: nil,
          version: journal.version, to: &framed)
        try journal.append(framed: &framed)
      }
    }
    #expect {
      _ = try till.open(as: ClashingTea.self)
    } throws: { error in
      guard case DurableStoreError.replay(let sequence, let reason) = error else { return false }
      return sequence == 2 && reason.contains("already open")
    }
    #expect(throws: DurableStoreError.self) { _ = try DurableStore<ClashingTea>.read(at: till.path, initial: .init()) }
  }
}
