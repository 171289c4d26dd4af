import TestSupport
import Testing

@Suite(.tags(.endToEnd)) struct HelpTests {
  @Test(arguments: [["--help"], ["help"], ["run", "--help"], ["translate", "--help"], ["help", "run"]])
  func helpGoesToStdoutWithTheExitCodes(_ arguments: [String]) throws {
    let result = try Host().run(arguments)
    #expect(result.exitCode == 0)
    #expect(result.stdout.contains("OVERVIEW:"))
    #expect(result.stdout.contains("EXIT STATUS:"))
    #expect(result.stderr == "")
  }

  @Test func unknownSubcommandIsAUsageError() throws {
    let result = try Host().run("fly")
    #expect(result.exitCode == 64)
    #expect(result.stderr.hasPrefix("Error: unknown subcommand 'fly'"))
  }

  @Test func commandOptionsAreDocumented() throws {
    let help = try Host().run("run", "--help").stdout
    for option in [
      "--text <text>", "--replace", "--press <label>", "--provider <id|path>", "--timeout <seconds>", "--from <tag>",
      "--to <tag>",
    ] {
      #expect(help.contains(option))
    }
  }
}
