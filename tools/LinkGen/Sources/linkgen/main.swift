import Foundation
import LinkGenCore

// The thin executable: all behaviour lives in LinkGenCore, where tests reach it.
let status = LinkGenCommand(arguments: Array(CommandLine.arguments.dropFirst())).run()
exit(status.rawValue)
