package io.sluice.core.state;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds a {@link StateStoreProvider} by one of its {@link StateStoreProvider#names() names}. */
public final class StateStoreProviders {
    /** The name used when {@link StateStoreProvider#PROVIDER_CLASS_KEY} is not set. */
    public static final String DEFAULT = MemoryStateStoreProvider.SPARK_NAME;

    private StateStoreProviders() {
    }

    /**
     * The provider that answers to {@code name} among those {@link ServiceLoader} finds on {@code loader}.
     *
     * @throws IllegalArgumentException naming the key, the value and the names available, when none does
     */
    public static StateStoreProvider find(String name, ClassLoader loader) {
        List<String> known = new ArrayList<>();
        for (StateStoreProvider p : ServiceLoader.load(StateStoreProvider.class, loader)) {
            if (p.names().contains(name)) {
                return p;
            }
            known.add(p.names().get(0));
        }
        String hint = name.toLowerCase(java.util.Locale.ROOT).contains("rocksdb")
                ? " (the RocksDB store is in its own module: add it to the class path or the CLI's plugins)" : "";
        throw new IllegalArgumentException("Invalid value '" + name + "' for " + StateStoreProvider.PROVIDER_CLASS_KEY
                + ": no state store provider of that name" + hint + ". Available: " + String.join(", ", known));
    }
}
