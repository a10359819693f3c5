import Foundation
import LinkGenCore
import Testing

/// One bad manifest and every line linkgen must print for it.
struct BadManifest: CustomTestStringConvertible, Sendable {
  let name: String
  let yaml: String
  let errors: [String]

  var testDescription: String { name }
}

let badManifests: [BadManifest] = [
  BadManifest(
    name: "YAML syntax error",
    yaml: "domains:\n  Menu: {state: MenuState\n",
    errors: [
      "3:1: error: invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping at 2:9)"
    ]),
  BadManifest(
    name: "empty file",
    yaml: "",
    errors: ["1:1: error: the manifest is empty; expected a mapping with 'domains' and 'worlds'"]),
  BadManifest(
    name: "document of the wrong shape",
    yaml: "- Menu\n- Tabs\n",
    errors: ["1:1: error: the manifest must be a mapping, not a sequence"]),
  BadManifest(
    name: "no domains",
    yaml: "worlds: {}\n",
    errors: ["1:1: error: missing required key 'domains' in the manifest"]),
  BadManifest(
    name: "unknown keys with suggestions",
    yaml: "domain:\n  Menu: { state: MenuState }\n",
    errors: [
      "1:1: error: missing required key 'domains' in the manifest",
      "1:1: error: unknown key 'domain' in the manifest; did you mean 'domains'?",
    ]),
  BadManifest(
    name: "misspelled kind",
    yaml: "domains:\n  Menu: { stat: MenuState }\n",
    errors: [
      "2:3: error: domain 'Menu' needs one of 'state', 'service' or 'resource'",
      "2:11: error: unknown key 'stat' in domain 'Menu'; did you mean 'state'?",
    ]),
  BadManifest(
    name: "missing required keys",
    yaml: """
      domains:
        Pay:
          service: P
        Clock:
          service: C
          links:
            Sys: { imp: X }
      worlds:
        W: { domains: [Clock] }

      """,
    errors: [
      "2:3: error: missing required key 'links' in domain 'Pay'",
      "7:7: error: missing required key 'impl' in link 'Sys' of 'Clock'",
      "7:14: error: unknown key 'imp' in link 'Sys' of 'Clock'; did you mean 'impl'?",
      "9:3: error: missing required key 'module' in world 'W'",
    ]),
  BadManifest(
    name: "values of the wrong type",
    yaml: """
      domains:
        Menu: { state: MenuState, doc: [a] }
        Pay:
          service: P
          noncopyable: yes
          access: write
          links: { A: { impl: A } }
        Log: { resource: L, access: read }
        Tabs: { state: { type: TabsState } }

      """,
    errors: [
      "2:34: error: 'doc' of domain 'Menu' must be a string, not a sequence",
      "5:18: error: 'noncopyable' of domain 'Pay' must be true or false, not a string",
      "6:13: error: 'access' of domain 'Pay' must be 'read' or 'mutate', not 'write'",
      "8:31: error: 'access' of domain 'Log' must be 'mutate', not 'read'",
      "9:18: error: 'state' of domain 'Tabs' must be a string, not a mapping",
    ]),
  BadManifest(
    name: "keys that do not apply to the kind",
    yaml: "domains:\n  Menu: { state: MenuState, links: {} }\n",
    errors: ["2:29: error: 'links' does not apply to a state domain (domain 'Menu')"]),
  BadManifest(
    name: "duplicate domains and duplicate keys",
    yaml: """
      domains:
        Menu: { state: MenuState }
        Menu: { state: Other }
        Stock: { state: S, state: T }

      """,
    errors: [
      "3:3: error: duplicate key 'Menu' (first defined at 2:3)",
      "4:22: error: duplicate key 'state' (first defined at 4:12)",
    ]),
  BadManifest(
    name: "two domains claiming one property",
    yaml: "domains:\n  Menu: { state: MenuState }\n  Carte: { state: Carte, property: menu }\n",
    errors: ["3:36: error: property 'menu' of domain 'Carte' is already claimed by domain 'Menu'"]),
  BadManifest(
    name: "names that are not identifiers or are keywords",
    yaml: """
      domains:
        My-Menu: { state: MenuState }
        Tabs: { state: TabsState, property: class }
        Stock: { state: "Stock State" }

      """,
    errors: [
      "2:3: error: 'My-Menu' is not a Swift identifier",
      "3:39: error: 'class' is a Swift keyword",
      "4:19: error: 'Stock State' is not a Swift type",
    ]),
  BadManifest(
    name: "a world with a missing link, an omitted service and an unknown domain",
    yaml: """
      domains:
        Pay:
          service: P
          links: { Stripe: { impl: S }, Mock: { impl: M } }
        Clock:
          service: C
          links: { Sys: { impl: S } }
        Menu: { state: MenuState }
      worlds:
        W: { module: App, domains: [Pay, Clock, Menuu], links: { Pay: Strip, Menu: Sys } }

      """,
    errors: [
      "10:3: error: world 'W' does not pick a link for service 'Clock' (one of 'Sys')",
      "10:43: error: world 'W' composes unknown domain 'Menuu'; did you mean 'Menu'?",
      "10:65: error: service 'Pay' has no link 'Strip'; did you mean 'Stripe'?",
      "10:72: error: world 'W' picks a link for 'Menu', which is not a service domain",
    ]),
  BadManifest(
    name: "link demands colliding with properties and each other",
    yaml: """
      domains:
        Menu: { state: MenuState }
        Clock:
          service: C
          links:
            Fixed: { impl: F, demands: { menu: Date } }
            Other: { impl: O, demands: { frozenNow: Int } }
            Third: { impl: T, demands: { frozenNow: Date }, stores: menu }

      """,
    errors: [
      "6:36: error: demand 'menu' of link 'Fixed' of 'Clock' collides with the property of domain 'Menu'",
      "8:36: error: demand 'frozenNow' of link 'Third' of 'Clock' has type 'Date', but link 'Other' of 'Clock' demands it as 'Int'",
      "8:63: error: stored property 'menu' of link 'Third' of 'Clock' collides with the property of domain 'Menu'",
    ]),
  BadManifest(
    name: "anchors and aliases",
    yaml: "domains:\n  Menu: &m { state: MenuState }\n  Carte: *m\n",
    errors: [
      "2:9: error: anchors and tags are not supported in the manifest",
      "3:10: error: aliases are not supported in the manifest",
    ]),
  BadManifest(
    name: "requirements linkgen cannot mock",
    yaml: """
      domains:
        Codec:
          service: Codec
          mock: true
          links: { Witness: { impl: MyWitness }, Live: { impl: LiveCodec } }
          requirements:
            decode<T>: { returns: T }
            encode: { parameters: ["value Int"], thrws: true }
            observe: { parameters: ["_ handler: (Int) -> Void"] }
        Other:
          service: Other
          mock: true
          links: { Live: { impl: LiveOther } }

      """,
    errors: [
      "5:14: error: link name 'Witness' is reserved for the generated test double of a mocked service",
      "7:7: error: requirement 'decode<T>' of domain 'Codec' is generic: linkgen cannot mock generic requirements; "
        + "declare one requirement per concrete type instead",
      "8:30: error: parameter 'value Int' must read 'label name: Type' or 'name: Type'",
      "8:44: error: unknown key 'thrws' in requirement 'encode' of domain 'Codec'; did you mean 'throws'?",
      "9:31: error: parameter '_ handler: (Int) -> Void' cannot be mocked: closure and inout parameters are not supported",
      "12:5: error: missing required key 'requirements' in domain 'Other': a mock is generated from the declared requirements",
    ]),
]

@Test(arguments: badManifests)
func aBadManifestIsReportedInFullAndChangesNothing(_ bad: BadManifest) throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", Manifests.world)
  #expect(root.run(["generate"]).0 == .success)
  let before = root.contents().filter { $0.key.hasPrefix("Generated/") }

  try root.write("codegen.yaml", bad.yaml)
  let (status, output, errors) = root.run(["generate", "--manifest", root.manifestPath])

  #expect(status == .failure)
  #expect(output.isEmpty)
  #expect(errors == bad.errors.map { "\(root.manifestPath):\($0)" }.joined(separator: "\n"))
  #expect(TemporaryRoot.same(root.contents().filter { $0.key.hasPrefix("Generated/") }, before))
}

@Test func aMissingManifestIsOneLineAndAFailure() throws {
  let root = try TemporaryRoot()
  let (status, _, errors) = root.run(["generate"])
  #expect(status == .failure)
  #expect(errors == "error: cannot read manifest '\(root.manifestPath)'")
}
