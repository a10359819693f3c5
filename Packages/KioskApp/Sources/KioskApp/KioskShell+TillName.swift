import KioskCommands

extension KioskShell {
  /// Keeps `name` as the till's name in its chain: journals `tillNamed`
  /// (synced before this returns) unless the till already has that name. Every
  /// later checkpoint, and so every later day, carries it. Who may name it, and
  /// when (the first sync; a rename the head office accepted), is the caller's
  /// rule (`HeadOfficeSync`, `kiosk rename-till`).
  public func nameTill(_ name: String) throws {
    guard HeadOfficeSync.isTillName(name) else { throw KioskShellError.invalidTillName(name) }
    guard tillName != name else { return }
    try prepareToWrite()
    try journal(.tillNamed(till: name))
    tillName = name
  }
}
