import Glibc
import System
import Testing

@testable import ResidentService

/// Every place taken by a connection at work: a newcomer is refused, unless
/// the client of one of them has gone (its thread had not yet seen it leave).
/// `ServiceConfinementTests.aNewConnectionIsRefusedWhenEveryConnectionIsAtWork`
/// failed now and then because the readiness probe's connection, closed by its
/// client, was still at work for an instant when the test's client connected.
@Suite struct ConnectionTableTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    /// What the client of the connection at work does with its end; whether that closed it.
    var client: @Sendable (FileDescriptor) -> Bool
    var newcomerAdmitted: Bool
  }

  static let cases: [Case] = [
    Case(
      testDescription: "its client closed its socket",
      client: {
        Syscalls.close($0)
        return true
      }, newcomerAdmitted: true),
    Case(
      testDescription: "its client shut it down both ways",
      client: {
        UnixSocket.shutdown($0)
        return false
      }, newcomerAdmitted: true),
    Case(testDescription: "its client is still there", client: { _ in false }, newcomerAdmitted: false),
    Case(
      testDescription: "its client shut down its sending side only (it waits for its answer)",
      client: { Glibc.shutdown($0.rawValue, Int32(SHUT_WR)) != 0 }, newcomerAdmitted: false),
  ]

  @Test(arguments: cases) func aConnectionAtWork(_ test: Case) throws {
    let table = ConnectionTable(limit: 1)
    let (working, client) = try Syscalls.socketPair()
    defer { Syscalls.close(working) }
    #expect(table.admit(working))
    let place = try #require(table.place(of: working))
    #expect(table.beginWork(place))
    let closed = test.client(client)
    let (newcomer, newClient) = try Syscalls.socketPair()
    defer {
      Syscalls.close(newcomer)
      Syscalls.close(newClient)
      if !closed { Syscalls.close(client) }
    }
    #expect(table.admit(newcomer) == test.newcomerAdmitted)
    // The connection that gave its place serves no further request.
    #expect(table.beginWork(place) == !test.newcomerAdmitted)
  }
}
