package io.sluice.api.io;

import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * Makes {@link Storage}s for URI schemes other than local paths. Found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.sluice.api.io.StorageProvider}) by {@link Storages#of}; a module such as
 * {@code sluice-s3} registers one for {@code s3} and {@code s3a}. Implementations are thread-safe and stateless
 * enough to be loaded more than once.
 */
public interface StorageProvider {

    /** The URI schemes this provider serves, lower case: {@code ["s3", "s3a"]}. Never {@code file}. */
    Set<String> schemes();

    /**
     * A storage for {@code uri} (and other URIs of the same scheme and authority, e.g. the same bucket).
     *
     * @param uri  a URI with one of {@link #schemes()}, e.g. {@code s3a://bucket/chk/q1}
     * @param conf the engine's configuration entries ({@code Sluice.builder().config}, {@code sluice run --conf},
     *             with {@code spark.hadoop.} already stripped) overlaid with the query's options for this source or
     *             sink, as Spark builds a Hadoop configuration: e.g. {@code fs.s3a.endpoint}. Keys this provider
     *             does not know are ignored. Values may be secrets: never log them or put them in messages.
     * @throws IOException when the store cannot be set up (e.g. no credentials); the message names the URI's scheme
     *         and authority and never a secret
     * @throws IllegalArgumentException when the URI is malformed (e.g. no bucket) or a conf value is invalid
     */
    Storage open(String uri, Map<String, String> conf) throws IOException;
}
