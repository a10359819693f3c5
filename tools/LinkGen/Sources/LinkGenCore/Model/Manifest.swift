/// The validated contents of `codegen.yaml`: every domain and every world.
///
/// Arrays are sorted by name, so two manifests that mean the same thing (keys
/// in another order) are equal and generate the same bytes.
public struct Manifest: Equatable, Sendable {
  /// The domains, sorted by name.
  public var domains: [Domain]
  /// The worlds, sorted by name.
  public var worlds: [World]

  /// The features scenarios pin, sorted by name (`features:`, optional).
  public var features: [FeatureSpec]
  /// Where `features:` is, when the manifest has it.
  public var featuresLocation: SourceLocation?

  /// Creates a manifest; sorts its parts.
  public init(
    domains: [Domain], worlds: [World], features: [FeatureSpec] = [], featuresLocation: SourceLocation? = nil
  ) {
    self.domains = domains.sorted { $0.name < $1.name }
    self.worlds = worlds.sorted { $0.name < $1.name }
    self.features = features.sorted { $0.name < $1.name }
    self.featuresLocation = featuresLocation
  }

  /// Equal when they mean the same: where `features:` is does not matter.
  public static func == (lhs: Manifest, rhs: Manifest) -> Bool {
    (lhs.domains, lhs.worlds, lhs.features) == (rhs.domains, rhs.worlds, rhs.features)
  }

  /// The domain called `name`, if any: a binary search over the sorted domains,
  /// so worlds × domains lookups stay cheap on large manifests.
  public func domain(named name: String) -> Domain? {
    var low = 0
    var high = domains.count
    while low < high {
      let middle = (low + high) / 2
      if domains[middle].name < name { low = middle + 1 } else { high = middle }
    }
    return low < domains.count && domains[low].name == name ? domains[low] : nil
  }
}

/// One domain: a Swift package owning one capability.
public struct Domain: Equatable, Sendable {
  /// The domain (and its Swift module) name, e.g. `Menu`.
  public var name: String
  /// The capability's property name, e.g. `menu`.
  public var property: String
  /// Text for the capability's `///` comment.
  public var doc: String?
  /// What the domain owns.
  public var kind: Kind

  /// Creates a domain.
  public init(name: String, property: String, doc: String? = nil, kind: Kind) {
    self.name = name
    self.property = property
    self.doc = doc
    self.kind = kind
  }

  /// The three kinds of domain.
  public enum Kind: Equatable, Sendable {
    /// A copyable state slice: `HasX` (read) and `HasMutableX` (write).
    case state(type: String)
    /// A substitutable service: `HasX` with an associated type, one Link per implementation.
    case service(Service)
    /// A noncopyable resource reached by mutation only.
    case resource(type: String)
  }

  /// `HasMenu`.
  public var readCapability: String { "Has\(name)" }
  /// `HasMutableMenu`.
  public var writeCapability: String { "HasMutable\(name)" }
  /// `PaymentTesting`: the module of a mocked service's test doubles.
  public var testingModule: String { "\(name)Testing" }
}

/// A service domain's protocol, its access and its implementations.
public struct Service: Equatable, Sendable {
  /// The service protocol, e.g. `PaymentGateway`.
  public var protocolName: String
  /// Whether implementations may be noncopyable.
  public var isNoncopyable: Bool
  /// Whether generic code may only read the service, or also mutate it.
  public var access: Access
  /// The implementations, sorted by name; with `mock: true`, also the generated
  /// `Recording` and `Witness` links of the domain's testing module.
  public var links: [Link]
  /// The protocol's requirements as the manifest declares them, sorted by name.
  public var requirements: [Requirement]
  /// Whether linkgen emits a recording mock and a closure witness.
  public var isMocked: Bool

  /// Creates a service; sorts its links and requirements.
  public init(
    protocolName: String, isNoncopyable: Bool, access: Access, links: [Link], requirements: [Requirement] = [],
    isMocked: Bool = false
  ) {
    self.protocolName = protocolName
    self.isNoncopyable = isNoncopyable
    self.access = access
    self.links = links.sorted { $0.name < $1.name }
    self.requirements = requirements.sorted { $0.name < $1.name }
    self.isMocked = isMocked
  }

  /// `PaymentGatewayMock`.
  public var mockType: String { "\(protocolName)Mock" }
  /// `PaymentGatewayWitness`.
  public var witnessType: String { "\(protocolName)Witness" }
}

/// One method of a service protocol, as declared in the manifest.
public struct Requirement: Equatable, Sendable {
  /// The method's base name, e.g. `charge` (the manifest's `name:`, else its key).
  public var name: String
  /// The manifest's key for it, which names its members in the test doubles
  /// (`chargeCallCount`, `.charge(…)`); it differs from `name` for an overload.
  public var key: String
  /// What a mock answers when no handler is set and linkgen knows no zero for
  /// the result type (`mockDefault:`); a Swift expression.
  public var mockDefault: String?
  /// `equatable: false`: the parameters are not `Equatable`, so neither are the
  /// mock's recorded calls. Otherwise linkgen decides from the types.
  public var equatableOverride: Bool?
  /// The parameters, in order.
  public var parameters: [Parameter]
  /// The result type; nil for `Void`.
  public var returns: String?
  /// How it throws.
  public var throwing: Throwing
  /// `async`.
  public var isAsync: Bool
  /// `mutating`.
  public var isMutating: Bool

  /// Creates a requirement.
  public init(
    name: String, key: String? = nil, parameters: [Parameter] = [], returns: String? = nil,
    throwing: Throwing = .none, isAsync: Bool = false, isMutating: Bool = false, mockDefault: String? = nil,
    equatableOverride: Bool? = nil
  ) {
    self.name = name
    self.key = key ?? name
    self.mockDefault = mockDefault
    self.equatableOverride = equatableOverride
    self.parameters = parameters
    self.returns = returns
    self.throwing = throwing
    self.isAsync = isAsync
    self.isMutating = isMutating
  }

  /// Whether and what a requirement throws.
  public enum Throwing: Equatable, Sendable {
    /// Does not throw.
    case none
    /// `throws`.
    case untyped
    /// `throws(E)`.
    case typed(String)

    /// ` throws`, ` throws(E)` or ``.
    var clause: String {
      switch self {
      case .none: ""
      case .untyped: " throws"
      case .typed(let type): " throws(\(type))"
      }
    }
  }
}

/// One parameter: `_ amount: Decimal` is label `_`, name `amount`, type `Decimal`.
public struct Parameter: Equatable, Sendable {
  /// The argument label, `_` for none.
  public var label: String
  /// The parameter name.
  public var name: String
  /// The type.
  public var type: String

  /// Creates a parameter.
  public init(label: String, name: String, type: String) {
    self.label = label
    self.name = name
    self.type = type
  }
}

/// Read-only or read-write access to a service.
public enum Access: String, Equatable, Sendable, CaseIterable {
  /// `{ get }`.
  case read
  /// `{ get set }`.
  case mutate
}

/// One implementation of a service and what it demands from the world.
public struct Link: Equatable, Sendable {
  /// The link name, e.g. `Stripe` (gives `LinkStripePayment`).
  public var name: String
  /// The implementing type, e.g. `StripeGateway`.
  public var impl: String
  /// For a stateful link: the stored property holding the implementation.
  public var stores: String?
  /// Other stored values the link reads, passed to the implementation's initializer.
  public var demands: [Demand]
  /// Text for the link protocol's `///` comment.
  public var doc: String?
  /// True for the links linkgen adds to a mocked service (`Recording`,
  /// `Witness`): they live in the domain's testing module.
  public var isTestDouble: Bool

  /// Creates a link; sorts its demands.
  public init(
    name: String, impl: String, stores: String? = nil, demands: [Demand] = [], doc: String? = nil,
    isTestDouble: Bool = false
  ) {
    self.name = name
    self.impl = impl
    self.stores = stores
    self.demands = demands.sorted { $0.name < $1.name }
    self.doc = doc
    self.isTestDouble = isTestDouble
  }
}

/// A property a link requires its world to provide.
public struct Demand: Equatable, Sendable {
  /// The property name, e.g. `frozenNow`.
  public var name: String
  /// Its Swift type, e.g. `Date`.
  public var type: String

  /// Creates a demand.
  public init(name: String, type: String) {
    self.name = name
    self.type = type
  }
}

/// A concrete world: the module that owns it, the domains it composes, the links it picks.
public struct World: Equatable, Sendable {
  /// The world type, e.g. `KioskWorld`.
  public var name: String
  /// The Swift module that declares the world; its conformances are generated there.
  public var module: String
  /// The composed domains, sorted.
  public var domains: [String]
  /// The link picked for each composed service, by domain name.
  public var links: [String: String]
  /// Text for the generated file's summary comment.
  public var doc: String?
  /// The snapshot type generated for its state slices (`snapshot:`), if any.
  public var snapshot: String?

  /// Creates a world; sorts its domains.
  public init(
    name: String, module: String, domains: [String], links: [String: String], doc: String? = nil,
    snapshot: String? = nil
  ) {
    self.name = name
    self.module = module
    self.domains = domains.sorted()
    self.links = links
    self.doc = doc
    self.snapshot = snapshot
  }
}
