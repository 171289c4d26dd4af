import Testing

extension Tag {
  /// Tests that start the built `translation-host`, its runner or its service:
  /// `make check` skips their suites (scripts/run-tests finds them by this tag).
  @Tag package static var endToEnd: Self
}
