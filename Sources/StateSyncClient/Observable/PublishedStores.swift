import StateSyncCore
import Synchronization

/// The `LocalStore`s behind ``OptimisticMirror``'s sequences and callbacks, made on first use: each copies the
/// state, so an app observing only through ``ObservableMirror`` never pays for them.
final class PublishedStores<App: StateSyncApp>: Sendable {
    private struct Stores {
        var predicted: LocalStore<App.State>?
        var view: LocalStore<OptimisticView<App.State>>?
    }

    private let stores = Mutex(Stores())

    /// Whether any store was made.
    var inUse: Bool { stores.withLock { $0.predicted != nil || $0.view != nil } }

    /// The store of the predicted state, made at `current` on first use.
    func predicted(_ current: @autoclosure () -> App.State) -> LocalStore<App.State> {
        stores.withLock { stores in
            if let store = stores.predicted { return store }
            let store = LocalStore(initialState: current())
            stores.predicted = store
            return store
        }
    }

    /// The store of the ``OptimisticView``, made at `current` on first use.
    func view(_ current: @autoclosure () -> OptimisticView<App.State>) -> LocalStore<OptimisticView<App.State>> {
        stores.withLock { stores in
            if let store = stores.view { return store }
            let store = LocalStore(initialState: current())
            stores.view = store
            return store
        }
    }

    /// Shows `state` and `view` in the stores made so far.
    func publish(state: App.State, view: OptimisticView<App.State>) {
        let (predicted, viewStore) = stores.withLock { ($0.predicted, $0.view) }
        predicted?.performStateUpdate { $0 = state }
        viewStore?.performStateUpdate { $0 = view }
    }
}
