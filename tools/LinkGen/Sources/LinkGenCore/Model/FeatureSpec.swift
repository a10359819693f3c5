/// One entry of `features:`: a behaviour pinned by scenarios and recordings
/// (docs/replay.md). linkgen generates nothing from it; `check` holds it to
/// the files on disk.
public struct FeatureSpec: Equatable, Sendable {
  /// The feature's name, as requests and `Tests/Recordings/<name>/` use it.
  public var name: String
  /// The manifest's world its steps run in; nil when it runs on a world of its own.
  public var world: String?
  /// The Swift file of its scenarios, relative to the repository root.
  public var scenario: String
  /// Its recordings' names: `Tests/Recordings/<name>/<fixture>.json` each.
  public var fixtures: [String]
  /// Where the manifest says each of these, for `check`'s diagnostics.
  public var locations: Locations

  /// Where a feature's parts are in the manifest.
  public struct Locations: Sendable {
    /// The feature's name.
    public var name: SourceLocation
    /// The scenario file's path.
    public var scenario: SourceLocation
    /// The `fixtures` key.
    public var fixturesKey: SourceLocation
    /// Each fixture.
    public var fixtures: [SourceLocation]

    /// Locations, all at `location` by default.
    public init(
      name: SourceLocation, scenario: SourceLocation, fixturesKey: SourceLocation, fixtures: [SourceLocation]
    ) {
      self.name = name
      self.scenario = scenario
      self.fixturesKey = fixturesKey
      self.fixtures = fixtures
    }
  }

  /// Creates a feature.
  public init(name: String, world: String?, scenario: String, fixtures: [String], locations: Locations) {
    self.name = name
    self.world = world
    self.scenario = scenario
    self.fixtures = fixtures
    self.locations = locations
  }

  /// Equal when they mean the same: where the manifest says it does not matter.
  public static func == (lhs: FeatureSpec, rhs: FeatureSpec) -> Bool {
    (lhs.name, lhs.world, lhs.scenario, lhs.fixtures) == (rhs.name, rhs.world, rhs.scenario, rhs.fixtures)
  }
}
