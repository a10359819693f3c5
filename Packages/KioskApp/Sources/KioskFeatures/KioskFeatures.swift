import FeatureKit
import KioskCommands

/// The kiosk's features, as `codegen.yaml`'s `features:` lists them: each
/// runs `KioskModel` and takes some of its actions.
public enum KioskFeatures {
  /// Opening tabs and changing their lines.
  public static let tabs = Feature<KioskModel>(name: "tabs", actions: ["openTab", "add", "remove"])
  /// Deliveries, and what the stock on hand lets the kitchen make.
  public static let stock = Feature<KioskModel>(name: "stock", actions: ["restock", "add", "settle"])
  /// Settling a tab: its checks, the charge, the stock it consumes.
  public static let settle = Feature<KioskModel>(name: "settle", actions: ["settle"])
  /// Undoing each kind of command, a settle by a refund.
  public static let undo = Feature<KioskModel>(
    name: "undo", actions: ["openTab", "add", "remove", "restock", "settle", "undo"])
  /// Money under idempotency keys: a key moves money once, and a processor's faults.
  public static let money = Feature<KioskModel>(name: "money", actions: ["settle", "undo"])

  /// Every feature.
  public static let all = [tabs, stock, settle, undo, money]

  /// What `kiosk-replay` serves: one entry per feature.
  public static let registry = ReplayRegistry(all.map { ReplayRegistry.Entry.feature($0) })
}
