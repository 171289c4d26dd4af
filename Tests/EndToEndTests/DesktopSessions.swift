import Testing

/// The popover in real graphical sessions, one at a time: each test starts
/// a display server, and an editor or a compositor, which a loaded 2-core
/// machine cannot run many of at once.
@Suite(.serialized, .tags(.endToEnd)) enum DesktopSessions {}
