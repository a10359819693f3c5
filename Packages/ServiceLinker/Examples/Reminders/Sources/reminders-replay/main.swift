import FeatureKit
import Reminders

// The replay lane's server: one request per line in, one answer per line out.
ReplayServer(registry: ReplayRegistry([.feature(Reminders.feature)])).run()
