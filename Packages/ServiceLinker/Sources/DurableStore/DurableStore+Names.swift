#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension DurableStore {
  /// The suffixes of the files a store may keep beside its journal: the
  /// next period's checkpoint index, copies of a torn tail or a damaged
  /// journal, a journal being restored, and its format's companions.
  nonisolated static var ownSuffixes: [String] {
    [".next.checkpoints", ".torn-tail.99999", ".corrupt.99999", ".restoring"] + Model.Format.companionSuffixes
  }

  /// Refuses a journal at `path` whose name (or whole path) leaves no room,
  /// in its folder (or the system), for the files kept beside it: the store's own (the longest is
  /// `NAME.next.checkpoints`), its format's companions, and `suffixes`, those
  /// the app keeps (its archives' names, say). `open` checks it before it
  /// writes anything, so a journal that opens can always take a checkpoint
  /// and close its period; an app that makes files of its own beside the
  /// journal calls it, with their suffixes, before it makes them. A folder
  /// that is not there is left for opening to refuse.
  public nonisolated static func refuseNameWithoutRoom(
    at path: String, keeping suffixes: [String] = []
  ) throws(DurableStoreError) {
    guard let roomless = DurablePeriods.nameWithoutRoom(path, among: ownSuffixes + suffixes) else { return }
    throw .nameWithoutRoom(
      path: path, whole: roomless.whole, bytes: roomless.bytes, longest: roomless.longest, limit: roomless.limit)
  }
}
