package io.sluice.api.source;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.types.StructType;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Makes streams of one kind of source, found by its {@link #shortName()} (the {@code format(..)} a user writes).
 *
 * <p>Providers are discovered with {@link java.util.ServiceLoader}: list the implementing class in
 * {@code META-INF/services/io.sluice.api.source.SourceProvider}. Each {@code Sluice} instance creates one
 * instance with the public no-argument constructor and shares it between all its queries and threads, so a provider
 * must be stateless and thread-safe (a format given as a class name gets a new instance per lookup). Built-in
 * sources register the same way; the engine names none of them.
 */
public interface SourceProvider {

    /** The name users pass to {@code format(..)}, e.g. {@code "rate"}. Compared case-insensitively. */
    String shortName();

    /**
     * The options this source takes, declared once (name, type, default, validator, doc). Before
     * {@link #resolveSchema} the engine checks every given option name against them (case-insensitive): a name
     * close to a declared one (a typo, another case or separator, a missing or extra trailing {@code s}) fails with
     * an {@link InvalidOptionException} naming the declared one; another unknown name is logged once as a warning,
     * or fails when the engine runs with {@code sluice.options.unknown=error}. Names under a declared prefix are
     * never unknown. The default, {@link OptionSet#undeclared()}, makes no check at all.
     */
    default OptionSet options() {
        return OptionSet.undeclared();
    }

    /**
     * The schema this source always produces for these options, if it has one (rate, socket, kafka); empty when
     * the user must supply a schema (json, csv). Called when the user calls {@code load()}.
     */
    default Optional<StructType> fixedSchema(Options options) {
        return Optional.empty();
    }

    /**
     * Validates the options and resolves the schema of the rows the stream will produce. Called once, when the
     * user calls {@code load()}, before any query starts; every option error must be thrown here.
     *
     * <p>The default: a source with a fixed schema refuses a different user schema; a source without one requires
     * the user's.
     *
     * @param userSchema the schema the user gave with {@code schema(..)}, or empty
     * @throws InvalidOptionException for a missing or bad option
     * @throws IllegalArgumentException for a schema the source cannot produce
     */
    default StructType resolveSchema(Options options, Optional<StructType> userSchema) {
        Optional<StructType> fixed = fixedSchema(options);
        if (fixed.isPresent()) {
            if (userSchema.isPresent() && !userSchema.get().equals(fixed.get())) {
                throw new IllegalArgumentException("The " + shortName() + " source has a fixed schema ("
                        + fixed.get().toDDL() + ") and does not accept a user-specified schema ("
                        + userSchema.get().toDDL() + ")");
            }
            return fixed.get();
        }
        return userSchema.orElseThrow(() -> new IllegalArgumentException(
                "Schema must be specified when creating a streaming source DataFrame for format '" + shortName()
                        + "': call schema(\"col1 type, col2 type\")"));
    }

    /**
     * {@link #resolveSchema(Options, Optional)} for a frame the engine knows to be a one-off read or a stream. The
     * engine's {@code load()} calls this one, once; the default ignores {@code bounded} and calls the two-argument
     * form, so a source overrides this only when some options are valid in one kind of read and not in the other
     * (Kafka's ending offsets), and must then throw those option errors here as well. Hosts that cannot tell the
     * two apart yet (Spark's schema inference) call the two-argument form, and such errors come from
     * {@link #createStream} instead.
     *
     * @param bounded true for a one-off read ({@code Sluice.read()}, {@link StreamContext#bounded()} will be true),
     *                false for {@code readStream()}
     */
    default StructType resolveSchema(Options options, Optional<StructType> userSchema, boolean bounded) {
        return resolveSchema(options, userSchema);
    }

    /**
     * The local folder this source reads files from, if it does (for a glob, the folder before the first glob
     * character): the engine refuses, at {@code start()}, a query whose sink writes into that folder, a folder
     * inside it or one containing it ({@link io.sluice.api.sink.SinkProvider#localOutputFolder}). Called after
     * {@link #resolveSchema}. Empty by default (no check).
     */
    default Optional<Path> localInputFolder(Options options) {
        return Optional.empty();
    }

    /**
     * Whether this source can keep its private state on an object store, through
     * {@link StreamContext#metadataStorage()} at {@link StreamContext#metadataLocation()}, when the query's
     * checkpoint is there ({@code checkpointLocation} {@code s3a://...}); {@link StreamContext#metadataPath()} is
     * then null. False by default: the engine then refuses such a query at {@code start()}, naming the source, so
     * a source that only knows local folders never writes somewhere wrong.
     */
    default boolean supportsMetadataOnStorage() {
        return false;
    }

    /**
     * Builds the stream for one run of one query. Called once per query start, on the thread that calls
     * {@code start()}, after {@link #resolveSchema}; the engine calls {@link MicroBatchStream#stop()} when the run
     * ends, whatever the reason.
     */
    MicroBatchStream createStream(StreamContext context);
}
