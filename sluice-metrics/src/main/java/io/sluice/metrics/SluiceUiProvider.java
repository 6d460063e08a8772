package io.sluice.metrics;

import io.sluice.core.Sluice;
import io.sluice.core.UiProvider;

/**
 * The web UI behind {@code Sluice.builder().ui(host, port)}, found by the engine through ServiceLoader: a
 * {@link SluiceUi} server. Public only because ServiceLoader needs it; use {@link SluiceUi} directly otherwise.
 */
public final class SluiceUiProvider implements UiProvider {

    @Override
    public Server start(Sluice sluice, String host, int port) {
        return SluiceUi.start(sluice, host, port);
    }
}
