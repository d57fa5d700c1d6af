import NIOCore

/// The steps of switching a connection from HTTP/1.1 to WebSocket that the
/// server's and the client's HTTP stage share.
enum ProtocolSwitch {
    /// Removes the HTTP handlers, then runs `install`, removes the HTTP stage at `context` and calls `switched`
    /// (`failed` if a step throws). The WebSocket handler is added only once NIO's HTTP decoders have left, since
    /// they watch outbound writes; bytes handed on meanwhile must be buffered by the stage.
    static func replaceHTTPHandlers(
        context: ChannelHandlerContext,
        removing handlers: [any RemovableChannelHandler],
        decoder: any RemovableChannelHandler,
        install: @escaping () throws -> Void,
        switched: @escaping () -> Void = {},
        failed: @escaping (any Error) -> Void
    ) {
        let pipeline = context.pipeline.syncOperations
        for handler in handlers {
            pipeline.removeHandler(handler, promise: nil)
        }
        let decoderRemoved = context.eventLoop.makePromise(of: Void.self)
        pipeline.removeHandler(decoder, promise: decoderRemoved)
        decoderRemoved.futureResult.assumeIsolated().whenComplete { result in
            do {
                try result.get()
                try install()
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                switched()
            } catch {
                failed(error)
            }
        }
    }

    /// Hands the bytes that arrived during the switch to the WebSocket
    /// handler, then leaves the pipeline.
    static func leave(
        context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken, delivering buffered: [NIOAny]
    ) {
        for data in buffered {
            context.fireChannelRead(data)
        }
        if !buffered.isEmpty {
            context.fireChannelReadComplete()
        }
        context.leavePipeline(removalToken: removalToken)
    }
}
