/// A frame from the runner: a reply, or an event the provider caused.
package enum RunnerMessage: Sendable, Equatable {
  case reply(RunnerReply)
  case event(SceneEvent)
}
