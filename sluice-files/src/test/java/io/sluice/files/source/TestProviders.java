package io.sluice.files.source;

import io.sluice.api.source.SourceProvider;
import io.sluice.files.fs.FileStorage;

/** File source providers over {@link TestFormats}, for tests (register them with Sluice.registerSource). */
public final class TestProviders {
    private TestProviders() {
    }

    public static SourceProvider json() {
        return new FileSourceProvider("json", TestFormats.INSTANCE, FileStorage.local()) {
        };
    }

    public static SourceProvider text() {
        return new FileSourceProvider("text", TestFormats.INSTANCE, FileStorage.local()) {
        };
    }
}
