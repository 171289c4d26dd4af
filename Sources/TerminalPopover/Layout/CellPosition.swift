/// A cell: a line (row) and a column, both from 0.
package struct CellPosition: Equatable, Sendable {
  package var line: Int
  package var column: Int

  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }
}
