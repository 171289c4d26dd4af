import CNCursesW

extension Character {
  /// The columns the character takes on a terminal: the sum of its scalars'
  /// `wcwidth`, as ncurses and terminal emulators count them (0 for
  /// combining marks and joiners, 2 for wide CJK and emoji). `wcwidth` is
  /// glibc's, declared by the ncurses module (`CNCursesW`), whose count it is:
  /// Swift's Glibc module hides it behind `_XOPEN_SOURCE`.
  var displayWidth: Int {
    var width = 0
    for scalar in unicodeScalars {
      let columns = wcwidth(wchar_t(bitPattern: scalar.value))
      if columns > 0 { width += Int(columns) }
    }
    return width
  }
}

extension StringProtocol {
  /// The columns the text takes on a terminal.
  var displayWidth: Int { reduce(0) { $0 + $1.displayWidth } }

  /// The longest prefix that fits in `columns`.
  func prefix(columns: Int) -> Substring {
    var used = 0
    var end = startIndex
    for index in indices {
      let width = self[index].displayWidth
      guard used + width <= columns else { break }
      used += width
      end = self.index(after: index)
    }
    return Substring(self[startIndex..<end])
  }
}
