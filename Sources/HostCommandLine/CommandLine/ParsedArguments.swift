/// A command's arguments, parsed against its `OptionSpec`s.
struct ParsedArguments {
  private(set) var values: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []

  /// Parses `arguments`: `--name value`, `--name=value`, flags, positionals,
  /// and `--` to end options.
  init(_ arguments: [String], options: [OptionSpec], command: any Command.Type) throws(CommandError) {
    let specs = Dictionary(uniqueKeysWithValues: (options + [.help]).map { ($0.name, $0) })
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      let body = argument.drop(while: { $0 == "-" })
      let name = String(body.prefix(while: { $0 != "=" }))
      let inlineValue = body.contains("=") ? String(body.drop(while: { $0 != "=" }).dropFirst()) : nil
      guard argument.hasPrefix("--"), let spec = specs[name] else {
        throw .usage("unknown option '\(argument)'", of: command)
      }
      guard spec.valueName != nil else {
        if inlineValue != nil { throw .usage("option '--\(name)' takes no value", of: command) }
        flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        // A following option is not a value; `--name=--value` passes one that looks like an option.
        guard index < arguments.count, !arguments[index].hasPrefix("--") else {
          throw .usage("missing value for '--\(name) <\(spec.valueName!)>'", of: command)
        }
        value = arguments[index]
        index += 1
      }
      if values[name] != nil && !spec.isRepeatable {
        throw .usage("option '--\(name)' given more than once", of: command)
      }
      values[name, default: []].append(value)
    }
  }

  /// The one positional argument, `what` the command expects (for the message).
  func single(_ what: String, of command: any Command.Type) throws(CommandError) -> String {
    guard positionals.count == 1 else {
      throw .usage(positionals.isEmpty ? "missing \(what)" : "expected one \(what), got \(positionals.count)", of: command)
    }
    return positionals[0]
  }

  /// The value of a single-valued option.
  func value(_ name: String) -> String? { values[name]?.last }

  /// All values of a repeatable option, in order.
  func allValues(_ name: String) -> [String] { values[name] ?? [] }

  /// Whether a flag was given.
  func has(_ name: String) -> Bool { flags.contains(name) }
}
