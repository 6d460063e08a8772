package io.sluice.api.source;

/**
 * Marks a source whose readers can only be made by the very stream object that planned their partitions, so an
 * engine that reads partitions in other processes must refuse it.
 *
 * <p><b>The rule without this marker</b> (the default, and what every source should aim for): a reader depends
 * only on its partition, the options and the schema. {@link MicroBatchStream#createReader} called on a
 * <em>fresh</em> stream of the same provider, made by {@link SourceProvider#createStream} with the same options,
 * schema, query id, source index and {@code bounded} flag but an empty scratch {@code metadataPath}, and on which
 * nothing but {@code createReader} is called, returns the same rows as the stream that planned the partition. The
 * Spark bridge ({@code sluice-spark}) relies on it: Spark's executors build their readers that way.
 *
 * <p>A source that breaks the rule implements this interface: on its {@link SourceProvider} when all its streams
 * break it (an engine can then refuse it as soon as the source is resolved, before any stream exists), or on its
 * {@link MicroBatchStream} when only some do (the engine finds out once the stream is created, when the query
 * starts). Typical cases: readers that hand out rows the planning stream holds in memory (the {@code socket} and
 * {@code memory} sources), and readers of a simple {@link io.sluice.api.datasource.DataSource}, whose rows are
 * read on the query thread by {@code read(start)} and replayed from state only the planning side has.
 *
 * <p>Sluice itself reads every partition in the JVM and on the stream that planned it, so it runs marked sources
 * unchanged; the marker only matters to engines that read elsewhere, which refuse such a source with a message
 * naming it and giving {@link #driverLocalReason()}.
 */
public interface DriverLocalReaders {

    /**
     * Why the readers need their own stream, and what to use instead where that is not possible, as a sentence
     * fragment for the refusal message, e.g. {@code "its rows are the lines that stream received, kept in its
     * memory: use Spark's own socket source, format(\"socket\")"}.
     */
    String driverLocalReason();
}
