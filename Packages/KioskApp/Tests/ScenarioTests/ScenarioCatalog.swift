import KioskFeatures
import ScenarioTesting

/// Every scenario, by feature, in the order the features are listed.
let allScenarios: [Scenario<KioskModel>] =
  tabsScenarios + stockScenarios + settleScenarios + undoScenarios + moneyScenarios

/// Every leaf of every scenario: the test cases.
let allLeaves = allScenarios.flatMap(\.leaves)
