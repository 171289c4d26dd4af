import Foundation
import TestSupport

@testable import ApertiumSupport

/// An Apertium mode of one stage, a script that copies each null-flushed
/// record and writes it down, so tests see what reached the pipeline. In the
/// records listed in `damaged` (0-based) it turns every text break into a
/// plain blank, as a stage that moved one would.
struct CopyingMode {
  let pair: ApertiumPair
  private let folder: TemporaryDirectory

  init(damaging damaged: [Int] = []) throws {
    folder = try TemporaryDirectory()
    let source = try folder.write(
      "stage.py",
      """
      #!/usr/bin/python3
      import sys
      damaged, count = {\(damaged.map(String.init).joined(separator: ", "))}, 0
      log = open(sys.argv[0] + ".records", "a")
      record = b""
      while byte := sys.stdin.buffer.read(1):
          if byte != b"\\0":
              record += byte
              continue
          log.write(record.decode() + "\\n")
          log.flush()
          if count in damaged:
              record = record.replace(b"[|]", b" ")
          sys.stdout.buffer.write(record + b"\\0")
          sys.stdout.buffer.flush()
          count, record = count + 1, b""
      """)
    // The program is written by `install`, not by this process: a program
    // started on another thread while this process had it open for writing
    // would hold that descriptor, and running the stage would then fail
    // with ETXTBSY ("the pipeline ended").
    let stage = folder.path + "/stage"
    _ = try Command.run("/usr/bin/install", ["-m", "0755", source, stage])
    let mode = try folder.write("test-copy.mode", "'\(stage)'\n")
    pair = ApertiumPair(mode: "test-copy", modeFile: mode, source: "en", target: "en-x-copy")
  }

  /// The records the stage was given, in order, each as the stream format has it.
  func records() throws -> [String] {
    let path = folder.path + "/stage.records"
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
  }
}
