import Foundation
import Glibc
import TestSupport
import Testing

@testable import ApertiumSupport

/// The warm pipeline against `apertium eng-spa` itself, text by text.
@Suite(.serialized) struct ApertiumEngineTests {
  /// 320 varied texts: punctuation, numbers, quotes, the stream format's
  /// reserved characters, blanks and line breaks, empty and very long lines.
  static let corpus: [String] = {
    let subjects = ["The cat", "My old friend", "A red car", "The teacher", "Everybody", "This house", "Your dog", "Peter"]
    let verbs = [
      "is on the table", "sings loudly", "bought 3 apples", "was here at 10:30", "likes \"quotes\"", "reads books", "goes home",
      "can't swim",
    ]
    let endings = [
      ".", "!", "?", "...", ",", ";", ":", "", " (really)", " [sic]", " <b>", " {x}", " ^up$", " @home", " a/b", " \\back",
    ]
    var texts: [String] = []
    for index in 0..<300 {
      let subject = subjects[index % subjects.count]
      let verb = verbs[(index / subjects.count) % verbs.count]
      let ending = endings[(index * 7) % endings.count]
      switch index % 10 {
      case 0: texts.append("\(subject) \(verb)\(ending)\nSecond line: \(index)%")
      case 1: texts.append("\(subject)  \(verb)\(ending)\n\nNew paragraph \(index).")
      case 2: texts.append("\t\(subject) \(verb)\(ending) ")
      default: texts.append("\(subject) \(verb)\(ending)")
      }
    }
    texts += ["", " ", "\n", "\n\n", "42", "3.14159", "’Tis “curly” — dashes…", "émigré café naïve", "1, 2, 3 & 4 > 3 < 5"]
    texts += [String(repeating: "The cat is on the table and the dog is under it. ", count: 60)]
    texts += (0..<10).map { "Line \($0)\nwith\ttabs\r\nand CRLF" }
    return texts
  }()

  /// `apertium eng-spa` on each text of the corpus, each text alone, once
  /// for all the tests that compare with it.
  ///
  /// It is what `apertium eng-spa` does to a text (`apertium-destxt`, the
  /// pair's mode, `apertium-retxt`), with the mode's stages started once
  /// (`apertium -z -f none eng-spa`) and each text its own null flush: a
  /// cold run per text costs a start of every stage, over a minute of CPU for
  /// the corpus (minutes under load). Each flush is a text alone (issue 30:
  /// nothing of one flush is left to the next); `theReferenceIsApertiumTextByText`
  /// compares it with cold runs.
  static let reference = Result { try apertium(corpus) }

  /// `apertium eng-spa` on each distinct text of `texts` (the corpus repeats
  /// some), the pair's stages warm, each text its own null flush.
  private static func apertium(_ texts: [String]) throws -> [String] {
    let folder = try TemporaryDirectory()
    var files: [String: Int] = [:]
    for text in texts where files[text] == nil {
      files[text] = files.count
      try folder.write("in/\(files[text]!)", text)
    }
    // The deformatter and reformatter read one text each (neither passes a null flush on).
    try shell("cd '\(folder.path)' && mkdir -p des && ls in | \(parallel) sh -c 'apertium-destxt < in/{} > des/{}'")
    var flushes = Data()
    for index in 0..<files.count {
      flushes += try Data(contentsOf: URL(filePath: "\(folder.path)/des/\(index)")) + [0]
    }
    _ = try folder.write("flushes", flushes)
    try shell("cd '\(folder.path)' && apertium -z -f none eng-spa < flushes > translated")
    // One flush out per flush in; the stages add empty ones as they end.
    let translated = try Data(contentsOf: URL(filePath: folder.path + "/translated"))
      .split(separator: 0, omittingEmptySubsequences: false)
    try #require(translated.count >= files.count, "a null flush out of apertium -z for each text")
    let extra = translated[files.count...].filter { !$0.isEmpty }
    #expect(extra.isEmpty, "nothing after the last text's flush")
    for index in 0..<files.count { _ = try folder.write("mode/\(index)", Data(translated[index])) }
    try shell("cd '\(folder.path)' && mkdir -p out && ls mode | \(parallel) sh -c 'apertium-retxt < mode/{} > out/{}'")
    return try texts.map { try String(contentsOfFile: "\(folder.path)/out/\(files[$0]!)", encoding: .utf8) }
  }

  /// `apertium eng-spa` on each of `texts` as a person runs it: a cold
  /// start of the whole pipeline per text.
  private static func coldApertium(_ texts: [String]) throws -> [String] {
    let folder = try TemporaryDirectory()
    for (index, text) in texts.enumerated() { try folder.write("in/\(index)", text) }
    try shell("cd '\(folder.path)' && mkdir -p out && ls in | \(parallel) sh -c 'apertium eng-spa < in/{} > out/{}'")
    return try texts.indices.map { try String(contentsOfFile: "\(folder.path)/out/\($0)", encoding: .utf8) }
  }

  /// `xargs` running a command per file name, one per core at a time.
  private static let parallel = "xargs -P \(max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) -I{}"

  private static func shell(_ script: String) throws {
    let run = try Command.run("/bin/sh", ["-c", "set -e; " + script])
    try #require(run.exitCode == 0, "\(script): \(run.stderr)")
  }

  /// The warm reference is `apertium eng-spa` run cold on each text: on a
  /// sample of the distinct texts (every 12th, and the blank ones, whose
  /// flushes are the odd ones out) in `make test`; on all of them in `make
  /// soak` (174 cold runs; they agreed on all when the warm reference came in).
  @Test func theReferenceIsApertiumTextByText() throws {
    let reference = try Self.reference.get()
    var seen = Set<String>()
    let distinct = Self.corpus.indices.filter { seen.insert(Self.corpus[$0]).inserted }
    let soak = ProcessInfo.processInfo.environment["TRANSLATION_HOST_SOAK"] == "1"
    let sample =
      soak
      ? distinct
      : distinct.enumerated().filter { $0.offset % 12 == 0 || Self.corpus[$0.element].allSatisfy(\.isWhitespace) }.map(\.element)
    #expect(soak || sample.count >= 16)
    let cold = try Self.coldApertium(sample.map { Self.corpus[$0] })
    for (index, theirs) in zip(sample, cold) where reference[index] != theirs {
      Issue.record(
        "text \(index) \(Self.corpus[index].debugDescription): the warm reference \(reference[index].debugDescription) ≠ apertium's \(theirs.debugDescription)"
      )
    }
  }

  @Test func findsTheInstalledPairs() throws {
    let engine = ApertiumEngine()
    let pair = try #require(engine.pair(from: "en", to: "es"))
    #expect(pair.mode == "eng-spa")
    #expect(engine.pair(from: "es", to: "en")?.mode == "spa-eng")
    #expect(engine.pair(from: "es", to: "en-US")?.mode == "spa-eng_US")
    #expect(engine.pair(from: "en", to: "fr") == nil)
  }

  /// What the Apertium provider loads into the stages, from the bundle `make build` made.
  static let stagePreload = ApertiumStagePreload(
    bundle: ServiceProcess.buildDirectory + "/lib/translation-host/providers/Apertium.translationprovider")

  @Test func theProviderLoadsItsLibraries() {
    #expect(
      Self.stagePreload.paths.map { String($0.split(separator: "/").last!) }
        == [
          ApertiumStagePreload.taggerOpenClass, ApertiumStagePreload.integerScan, ApertiumStagePreload.matchCache,
          ApertiumStagePreload.allocator,
        ],
      "make build puts the tagger's fix, the integer scan and the match cache in the Apertium bundle, and installs mimalloc")
  }

  @Test(arguments: [false, true]) func translatesExactlyAsApertiumDoes(withStagePreload: Bool) throws {
    let expected = try Self.reference.get()
    let preload = withStagePreload ? Self.stagePreload : .none
    let actual = try ApertiumEngine(stagePreload: preload).translate(Self.corpus, from: "en", to: "es")
    #expect(actual.count == expected.count)
    for (index, (mine, theirs)) in zip(actual, expected).enumerated() where mine != theirs {
      Issue.record(
        "text \(index) \(Self.corpus[index].debugDescription): \(mine.debugDescription) ≠ apertium's \(theirs.debugDescription)")
    }
  }

  /// The libraries that only make the stages cheaper change no translation:
  /// ApertiumBatchTests' 2,000 distinct lines (licence sentences, unknown
  /// names, quotes, dashes, abbreviations, empty lines) as one batch with
  /// every library against every library but one, with and without the marks.
  @Test(arguments: [ApertiumStagePreload.matchCache, ApertiumStagePreload.integerScan, ApertiumStagePreload.allocator])
  func aLibraryForSpeedChangesNoTranslation(leftOut library: String) throws {
    let all = Self.stagePreload
    #expect(all.paths.contains { $0.hasSuffix("/" + library) }, "\(library) is loaded")
    let without = ApertiumStagePreload(paths: all.paths.filter { !$0.hasSuffix("/" + library) })
    let corpus = ApertiumBatchTests.corpus
    for marks in [true, false] {
      let expected = try ApertiumEngine(marksUnknownWords: marks, stagePreload: without).translate(corpus, from: "en", to: "es")
      let actual = try ApertiumEngine(marksUnknownWords: marks, stagePreload: all).translate(corpus, from: "en", to: "es")
      #expect(actual.count == corpus.count)
      let differences = zip(actual, expected).enumerated().filter { $0.element.0 != $0.element.1 }
      for (index, (mine, theirs)) in differences.prefix(10) {
        Issue.record(
          "line \(index + 1) \(corpus[index].debugDescription), marks \(marks): \(mine.debugDescription) with \(library), \(theirs.debugDescription) without"
        )
      }
      #expect(differences.isEmpty)
    }
  }

  /// A stage killed between requests, the last or one in the middle (the
  /// stages after it then flush empty answers as they end): the next request
  /// is answered by a new pipeline, never with those empty answers.
  @Test(arguments: ["eng-spa.autopgen.bin", "eng-spa.t1x.bin", "eng-spa.automorf.bin"])
  func aKilledPipelineIsRestartedAndTheNextRequestSucceeds(stage file: String) throws {
    let engine = ApertiumEngine()
    #expect(try engine.translate(["The cat."], from: "en", to: "es") == ["El gato."])
    // The engine's pipeline is a child of this process; its stages are the
    // child's children. Only they go: not the pipelines of other engines in
    // this process (another suite's, running at the same time), of runners, nor other programs'.
    let stages = engine.pipelineProcessIDs(mode: "eng-spa").flatMap(Processes.children(of:)).filter {
      Processes.arguments(of: $0)?.joined(separator: " ").contains(file) ?? false
    }
    #expect(stages.count == 1, "the pipeline's stage that reads \(file)")
    for stage in stages { kill(stage, SIGKILL) }
    #expect(try engine.translate(["The dog."], from: "en", to: "es") == ["El perro."])
    #expect(try engine.translate((1...20).map { "\($0) dogs." }, from: "en", to: "es") == (1...20).map { "\($0) perros." })
  }

  /// An engine with a warm eng-spa pipeline, and the pipeline's stages
  /// (keep the engine: its stages end with it).
  private static func warmStages() throws -> (ApertiumEngine, [pid_t]) {
    let engine = ApertiumEngine(stagePreload: stagePreload)
    #expect(try engine.translate(["The cat."], from: "en", to: "es") == ["El gato."])
    // The engine's pipeline is a child of this process; its stages (those that
    // read eng-spa's files) are the child's children, and no other engine's.
    let stages = engine.pipelineProcessIDs(mode: "eng-spa").flatMap(Processes.children(of:)).filter {
      Processes.arguments(of: $0)?.joined(separator: " ").contains("apertium-eng-spa/") ?? false
    }
    #expect(stages.count >= 10, "eng-spa's stages")
    return (engine, stages)
  }

  /// Every stage of the pipeline has the libraries loaded.
  @Test func theStagesLoadThePreloadedLibraries() throws {
    let (engine, stages) = try Self.warmStages()
    defer { withExtendedLifetime(engine) {} }
    for stage in stages {
      // Read to the end: /proc reports a size of 0, and a read by size stops at the first page.
      let file = try FileHandle(forReadingFrom: URL(filePath: "/proc/\(stage)/maps"))
      defer { try? file.close() }
      let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
      for path in Self.stagePreload.paths {
        #expect(maps.contains(path), "\(path) in \(Processes.arguments(of: stage) ?? [])")
      }
    }
  }

  /// The stages get their pipes and standard error, and none of this
  /// process's descriptors (in a runner: its protocol socket), close-on-exec
  /// or not.
  @Test func theStagesInheritNoOtherDescriptor() throws {
    // Not close-on-exec, as a descriptor a runner was given is.
    let ours = dup(STDIN_FILENO)
    #expect(ours > 2 && fcntl(ours, F_GETFD) & FD_CLOEXEC == 0)
    defer { close(ours) }
    let (engine, stages) = try Self.warmStages()
    defer { withExtendedLifetime(engine) {} }
    for stage in stages {
      let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(stage)/fd").compactMap { Int32($0) }
      // What a stage opens itself is under /usr (its transducers and rules).
      let inherited = descriptors.filter { descriptor in
        descriptor > 2
          && !((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(stage)/fd/\(descriptor)"))?
            .hasPrefix("/usr/") ?? true)
      }
      #expect(inherited.isEmpty, "\(inherited) in \(Processes.arguments(of: stage) ?? [])")
    }
  }

  @Test func unknownPairsAreRefused() {
    #expect(throws: ApertiumError.noPair(source: "en", target: "fr")) {
      try ApertiumEngine().translate(["x"], from: "en", to: "fr")
    }
  }

  /// Which texts reach the pipeline, batch after batch: each text once.
  @Test func aTextIsTranslatedOnceHoweverOftenItRecurs() throws {
    let mode = try CopyingMode()
    let engine = ApertiumEngine(pairs: [mode.pair])
    let batches = [["a", "b", "a", "a"], ["b", "c", "a"], Array(repeating: "c", count: 20), ["d"] + (0..<20).map { "t\($0)" }]
    for batch in batches {
      #expect(try engine.translate(batch, from: "en", to: "en-x-copy") == batch)
    }
    let texts = try mode.records().flatMap { $0.components(separatedBy: "[|]") }.map(ApertiumText.reformat)
    #expect(texts.sorted() == (["a", "b", "c", "d"] + (0..<20).map { "t\($0)" }).sorted())
  }
}
