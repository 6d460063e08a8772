package io.sluice.cli;

import io.sluice.core.CheckpointView;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a checkpoint into what {@code sluice checkpoint show} prints. The checkpoint's own files ({@code metadata},
 * {@code offsets/N}, {@code commits/N}) are read through the engine's read-only {@link CheckpointView}, which takes
 * no lock and writes nothing, so this works beside a running query; this class only derives each source's range
 * (where it starts) and, for a file source, the files it read ({@link FileSourceLog}).
 */
final class CheckpointReader {

    private CheckpointReader() {
    }

    /**
     * @throws IllegalArgumentException when {@code dir} does not exist or holds neither {@code metadata} nor
     *                                  {@code offsets/} ({@link CheckpointView#open})
     */
    static CheckpointReport read(Path dir) {
        CheckpointView view = CheckpointView.open(dir);
        Map<Long, CheckpointView.Batch> byId = new TreeMap<>();
        view.batches().forEach(b -> byId.put(b.batchId(), b));
        Map<Integer, Path> folders = new TreeMap<>();
        view.sourceFolders().forEach(f -> folders.put(f.index(), f.path()));
        List<CheckpointReport.Batch> batches = new ArrayList<>();
        for (CheckpointView.Batch b : view.batches()) {
            long id = b.batchId();
            if (b.problem() != null) {
                batches.add(new CheckpointReport.Batch(id, b.committed(), null, List.of(), "cannot read offsets/" + id
                        + ": " + b.problem()));
                continue;
            }
            CheckpointView.Batch previousBatch = id == 0 ? null : byId.get(id - 1);
            List<String> previous = previousBatch == null || previousBatch.offsets() == null ? null
                    : previousBatch.offsets().sources();
            List<String> ends = b.offsets().sources();
            List<CheckpointReport.SourceRange> sources = new ArrayList<>();
            for (int i = 0; i < ends.size(); i++) {
                CheckpointReport.Start kind;
                String start = null;
                if (id == 0) {
                    kind = CheckpointReport.Start.INITIAL;
                } else if (previous == null || i >= previous.size()) {
                    kind = CheckpointReport.Start.UNKNOWN;
                } else {
                    start = previous.get(i);
                    // A source with no offset yet in the previous batch starts this one where it started.
                    kind = start == null ? CheckpointReport.Start.INITIAL : CheckpointReport.Start.PREVIOUS_BATCH;
                }
                String end = ends.get(i);
                Path folder = folders.get(i);
                List<String> files = kind == CheckpointReport.Start.UNKNOWN || folder == null ? null
                        : FileSourceLog.filesRead(folder, start, end);
                sources.add(new CheckpointReport.SourceRange(i, kind, start, end, files));
            }
            batches.add(new CheckpointReport.Batch(id, b.committed(), b.offsets().batchTimestampMs(), sources, null));
        }
        Long rerun = view.rerunBatchId().isPresent() ? view.rerunBatchId().getAsLong() : null;
        return new CheckpointReport(view.path(), view.queryId().orElse(null), view.metadataProblem().orElse(null),
                batches, rerun);
    }
}
