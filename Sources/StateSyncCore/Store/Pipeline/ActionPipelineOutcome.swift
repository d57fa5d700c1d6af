/// The result of ``ActionPipeline/process(_:state:meta:)``. Not `Sendable`,
/// like the ``Footprint`` it carries: use it where the action was processed,
/// and send on only the ``Effect`` (which is).
public enum ActionPipelineOutcome<Action: Sendable> {
    /// The reducer changed the state: what it may have changed, and the
    /// effect the action asks for (not started; ``Effect/none`` when none).
    case accepted(Footprint, effect: Effect<Action>)
    /// A middleware or the reducer refused the action: the state is unchanged.
    case rejected(Rejection)
}
