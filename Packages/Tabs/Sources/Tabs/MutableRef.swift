/// A hoisted write access to one value, open for the duration of a closure.
///
/// `withMutableRef(&stock) { ref in … }` runs the accessor chain once, keeps
/// the exclusive access open while the closure runs, and hands the closure a
/// reference it can write through as often as it likes. The reference is
/// `~Copyable` and arrives `borrowing`, so it cannot be copied, stored or
/// returned: it cannot outlive the access it came from.
///
/// Why a closure and not `MutableRef(&stock)` with `@_lifetime(&target)`: on
/// Swift 6.3.1 that spelling compiled but, when `stock` was reached through a
/// protocol `modify` witness, the access ended before the reference's last use
/// and writes went to freed memory (a crash we reproduced). The closure scope
/// is sound on every toolchain.
public struct MutableRef<Value>: ~Copyable {
  @usableFromInline let pointer: UnsafeMutablePointer<Value>

  @inlinable init(pointer: UnsafeMutablePointer<Value>) { self.pointer = pointer }

  /// The referenced value, read and written in place.
  @inlinable public var value: Value {
    unsafeAddress { UnsafePointer(pointer) }
    nonmutating unsafeMutableAddress { pointer }
  }
}

/// Opens one write access to `target` and lends `body` a reference to it.
@inlinable public func withMutableRef<Value, Result, Failure: Error>(
  _ target: inout Value, _ body: (borrowing MutableRef<Value>) throws(Failure) -> Result
) throws(Failure) -> Result {
  try withUnsafeMutablePointer(to: &target) { (pointer) throws(Failure) -> Result in
    try body(MutableRef(pointer: pointer))
  }
}
