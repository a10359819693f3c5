/// A `DurableJournal` held by reference: what an owner whose module builds
/// generic types from their mangled names (the framework's, which may not
/// take the flag that stops it) keeps its journal in, so that letting the
/// owner go releases this box and the journal is closed by this module's code.
///
/// Destroying a `WriteAheadLog<PosixJournalEnvironment>` needs the type's
/// metadata. Made from its mangled name, that means the runtime looking up
/// `PosixJournalEnvironment`'s conformance to `HasJournalIO` by scanning every
/// conformance in the binary: about 250,000 instructions, a fifth of a
/// `kiosk open`, paid when its store was let go at exit.
///
/// The journal lives in memory the box allocates and frees, reached through
/// a pointer the box never changes: a class's stored property would be
/// checked for exclusive access at every use (about 75 instructions each,
/// several times a step), which `@exclusivity(unchecked)` does not stop
/// from another module.
public final class DurableJournalBox {
  /// The journal, for as long as the box lives.
  public let journal: UnsafeMutablePointer<DurableJournal>

  /// Holds `journal`.
  public init(_ journal: consuming DurableJournal) {
    self.journal = .allocate(capacity: 1)
    self.journal.initialize(to: journal)
  }

  /// Puts `next` in the journal's place, closing the journal there (here, as `deinit` does).
  public func replace(with next: consuming DurableJournal) {
    journal.pointee = next
  }

  deinit {
    journal.deinitialize(count: 1)
    journal.deallocate()
  }
}
