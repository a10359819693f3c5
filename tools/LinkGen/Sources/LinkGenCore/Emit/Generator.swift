/// Everything `Generated/` should hold for a manifest: relative path → file contents.
public enum Generator {

  /// The folder, relative to the repository root, that linkgen owns.
  public static let outputFolder = "Generated"

  /// Renders every file for `manifest`. Pure: same manifest, same bytes.
  public static func files(for manifest: Manifest) -> [String: String] {
    var files: [String: String] = [:]
    for domain in manifest.domains {
      let folder = "\(outputFolder)/\(domain.name)"
      files["\(folder)/\(domain.readCapability).swift"] = CapabilityEmitter.file(for: domain)
      if case .service(let service) = domain.kind {
        let testing = "\(outputFolder)/\(domain.testingModule)"
        for link in service.links {
          files["\(link.isTestDouble ? testing : folder)/\(LinkEmitter.protocolName(link, of: domain)).swift"] =
            LinkEmitter.file(for: link, of: domain, service: service)
        }
        if !service.requirements.isEmpty {
          files["\(folder)/\(service.protocolName)+Requirements.swift"] =
            RequirementCheckEmitter.file(for: domain, service: service)
        }
        if service.isMocked {
          files["\(testing)/\(service.mockType).swift"] = MockEmitter.file(for: domain, service: service)
          files["\(testing)/\(service.witnessType).swift"] = WitnessEmitter.file(for: domain, service: service)
        }
      }
    }
    for world in manifest.worlds {
      files["\(outputFolder)/\(world.module)/\(world.name)+Links.swift"] = WorldEmitter.file(for: world, in: manifest)
    }
    // One file per snapshot type, shared by the worlds (in one module) that name it.
    let bySnapshot = Dictionary(grouping: manifest.worlds.filter { $0.snapshot != nil }, by: { $0.snapshot! })
    for (snapshot, worlds) in bySnapshot {
      let sorted = worlds.sorted { $0.name < $1.name }
      files["\(outputFolder)/\(sorted[0].module)/\(snapshot).swift"] =
        SnapshotEmitter.file(named: snapshot, for: sorted, in: manifest)
    }
    return files
  }
}
