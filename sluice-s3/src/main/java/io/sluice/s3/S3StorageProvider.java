package io.sluice.s3;

import io.sluice.api.io.Storage;
import io.sluice.api.io.StorageProvider;

import java.util.Map;
import java.util.Set;

/** {@code s3://} and {@code s3a://} (the same meaning, as on EMR and Databricks) on {@link S3Storage}. */
public final class S3StorageProvider implements StorageProvider {

    @Override
    public Set<String> schemes() {
        return Set.of("s3", "s3a");
    }

    @Override
    public Storage open(String uri, Map<String, String> conf) {
        S3Uri u = S3Uri.parse(uri);
        // Checked now, so that a bad value fails before a query starts rather than at its first request.
        S3Options.resolve(u.bucket(), conf);
        return new S3Storage(conf);
    }
}
