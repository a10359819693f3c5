import KioskApp
import Payment

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `kiosk` program: parse the command line, run one command, print its
/// result (text or JSON) and return the exit status. Every failure, usage
/// errors included, is printed in the chosen format on stderr.
@MainActor
struct KioskProgram {
  let arguments: [String]
  let environment: [String: String]

  func run() async -> ExitCode {
    // Until the options are parsed, `--json` anywhere on the line decides the error format.
    var json = arguments.prefix { $0 != "--" }.contains("--json")
    do {
      let parsed = try ParsedArguments(arguments, environment: environment)
      json = parsed.options.json
      if parsed.options.version {
        print(render(VersionOutput(), json: json))
        return .success
      }
      guard let name = parsed.words.first else {
        // `kiosk --help` asks for the usage, as `kiosk help` does; bare `kiosk` is missing its command.
        if parsed.options.help {
          print(render(try OwnCommands.help(nil), json: json))
          return .success
        }
        if json {
          printText(jsonLine(OwnCommands.HelpOutput.missingCommand))
        } else {
          printText(CommandSpec.usageText)
        }
        return .usage
      }
      let spec = try CommandSpec.named(name)
      let words = Array(parsed.words.dropFirst())
      if parsed.options.help {
        print(render(try OwnCommands.help(spec.name), json: json))
        return .success
      }
      let checked = try spec.checked(words, all: parsed.options.all, check: parsed.options.check)
      // Only the commands that can pay read the payment variables: a bad value must not stop `help` or a read.
      let pays = spec.access == .writes || spec.name == "shell"
      let context = CommandContext(
        options: parsed.options, processorFault: try processorFault(), effects: pays ? try effectEnvironment() : .live)
      if let output = try await spec.run(context, checked) { print(render(output, json: json)) }
      return .success
    } catch {
      if let withOutput = error as? OutputFailure { print(render(withOutput.output, json: json)) }
      let failure = KioskFailure(error)
      if json {
        printText(jsonLine(ErrorOutput(error: failure.message, exitCode: failure.code.rawValue)))
      } else {
        printError("kiosk: \(failure.message)")
      }
      return failure.code
    }
  }

  private func render(_ output: any CommandOutput, json: Bool) -> String {
    json ? jsonLine(output) : output.text.joined(separator: "\n")
  }

  /// `$KIOSK_PROCESSOR_NETWORK` and `$KIOSK_PAYMENT_DEADLINE`: how requests
  /// reach the processor, and how long a payment may take (docs/cli.md).
  private func effectEnvironment() throws(KioskFailure) -> EffectEnvironment {
    var effects = EffectEnvironment.live
    if let text = environment["KIOSK_PAYMENT_DEADLINE"], !text.isEmpty {
      guard text.wholeMatch(of: /[0-9]{1,4}(\.[0-9]{1,3})?/) != nil, let seconds = Double(text), seconds > 0 else {
        throw .usage("KIOSK_PAYMENT_DEADLINE must be seconds, from 0.001 to 9999.999, not '\(text)'")
      }
      effects.policy = .within(.milliseconds(Int64((seconds * 1_000).rounded())))
    }
    if let text = environment["KIOSK_PROCESSOR_NETWORK"], !text.isEmpty {
      effects.network = try Self.network(text)
    }
    return effects
  }

  /// `direct`, `silent`, `loses-first-answer`, or `slow:SECONDS`.
  static func network(_ text: String) throws(KioskFailure) -> ProcessorNetwork {
    switch text {
    case "direct": return .direct
    case "silent": return .silent
    case "loses-first-answer": return .losesFirstAnswer
    default:
      if let match = text.wholeMatch(of: /slow:([0-9]{1,4}(\.[0-9]{1,3})?)/), let seconds = Double(match.1) {
        return .slow(latency: .milliseconds(Int64((seconds * 1_000).rounded())))
      }
      throw .usage(
        "KIOSK_PROCESSOR_NETWORK must be direct, silent, loses-first-answer or slow:SECONDS, not '\(text)'")
    }
  }

  /// `$KIOSK_PROCESSOR_FAULT`: makes the local processor fail on purpose, for tests.
  private func processorFault() throws(KioskFailure) -> LocalProcessor.Fault? {
    guard let text = environment["KIOSK_PROCESSOR_FAULT"], !text.isEmpty else { return nil }
    guard let fault = LocalProcessor.Fault(rawValue: text) else {
      let known = LocalProcessor.Fault.allCases.map(\.rawValue).joined(separator: ", ")
      throw .usage("KIOSK_PROCESSOR_FAULT must be one of \(known), not '\(text)'")
    }
    return fault
  }
}

extension OwnCommands.HelpOutput {
  /// What bare `kiosk --json` prints on stderr before exiting 64.
  static var missingCommand: ErrorOutput {
    ErrorOutput(error: "missing command; run 'kiosk help'", exitCode: ExitCode.usage.rawValue)
  }
}
