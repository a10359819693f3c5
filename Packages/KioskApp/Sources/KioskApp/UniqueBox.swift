/// A heap cell owning one `~Copyable` value: allocated once, freed with the box.
///
/// The world keeps its resources here so that moving the world moves a pointer,
/// not the resource, and so that the world is `~Copyable` by construction.
public struct UniqueBox<Value: ~Copyable>: ~Copyable {
  @usableFromInline let storage: UnsafeMutablePointer<Value>

  /// Moves `value` into a new box.
  @inlinable public init(_ value: consuming Value) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: value)
  }

  /// The boxed value, borrowed or mutated in place.
  @inlinable public var value: Value {
    unsafeAddress { UnsafePointer(storage) }
    nonmutating unsafeMutableAddress { storage }
  }

  deinit {
    storage.deinitialize(count: 1)
    storage.deallocate()
  }
}
