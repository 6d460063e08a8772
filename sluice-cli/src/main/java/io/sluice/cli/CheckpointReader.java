package io.sluice.cli;

import io.sluice.core.CheckpointView;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.core.state.StateStoreProvider;
import io.sluice.core.state.StateStoreProviders;
import io.sluice.files.source.FileSourceLogView;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Turns a checkpoint into what {@code sluice checkpoint show} prints. The checkpoint's own files ({@code metadata},
 * {@code offsets/N}, {@code commits/N}) are read through the engine's read-only {@link CheckpointView}, which takes
 * no lock and writes nothing, so this works beside a running query; this class only derives each source's range
 * (where it starts) and, for a file source, the files it read, through the file source's own read-only
 * {@link FileSourceLogView} of its log in {@code sources/<i>/}.
 */
final class CheckpointReader {

    private CheckpointReader() {
    }

    /**
     * @throws IllegalArgumentException when {@code dir} does not exist or holds neither {@code metadata} nor
     *                                  {@code offsets/} ({@link CheckpointView#open})
     */
    static CheckpointReport read(Path dir) {
        return read(dir, CheckpointReader.class.getClassLoader());
    }

    /** {@link #read(Path)}, looking the state store up on {@code loader} (for its row counts). */
    static CheckpointReport read(Path dir, ClassLoader loader) {
        return read(dir, loader, Storages.local(), null);
    }

    /**
     * {@link #read(Path, ClassLoader)} of the logs in {@code dir}, with the operators' state read from the
     * checkpoint at {@code stateCheckpoint} on {@code stateStorage} (for a checkpoint on an object store, whose logs
     * were copied to {@code dir}); {@code stateCheckpoint} null: {@code dir}'s own.
     */
    static CheckpointReport read(Path dir, ClassLoader loader, Storage stateStorage, String stateCheckpoint) {
        CheckpointView view = CheckpointView.open(dir);
        Map<Long, CheckpointView.Batch> byId = new TreeMap<>();
        view.batches().forEach(b -> byId.put(b.batchId(), b));
        Map<Integer, Path> folders = new TreeMap<>();
        view.sourceFolders().forEach(f -> folders.put(f.index(), f.path()));
        // Each file source's log is listed once, after the checkpoint: a batch's log file is written before its
        // offsets/N, so every batch the view holds has its files listed.
        Map<Integer, Optional<FileSourceLogView>> logs = new HashMap<>();
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
                        : filesRead(logs, i, folder, start, end);
                sources.add(new CheckpointReport.SourceRange(i, kind, start, end, files));
            }
            batches.add(new CheckpointReport.Batch(id, b.committed(), b.offsets().batchTimestampMs(), sources, null));
        }
        Long rerun = view.rerunBatchId().isPresent() ? view.rerunBatchId().getAsLong() : null;
        // The store the query runs with: pinned in the offset log's conf, as the engine reads it back.
        String store = StateStoreProviders.DEFAULT;
        for (CheckpointView.Batch b : view.batches()) {
            if (b.offsets() != null && b.offsets().conf().containsKey(StateStoreProvider.PROVIDER_CLASS_KEY)) {
                store = b.offsets().conf().get(StateStoreProvider.PROVIDER_CLASS_KEY);
            }
        }
        return new CheckpointReport(view.path().toString(), view.queryId().orElse(null),
                view.metadataProblem().orElse(null), batches, rerun, stateCheckpoint == null
                ? StateReader.read(view.path(), store, loader)
                : StateReader.read(stateStorage, stateCheckpoint, store, loader));
    }

    /** A source folder's file source log, or empty when it cannot be listed. */
    private static Optional<FileSourceLogView> openLog(Path folder) {
        try {
            return Optional.of(FileSourceLogView.open(folder));
        } catch (IllegalArgumentException | UncheckedIOException e) {
            return Optional.empty();
        }
    }

    /**
     * The paths a file source logged for log offsets {@code (start, end]}: null when the offsets are not a file
     * source's ({@code {"logOffset":N}}), when none of those offsets is retained, or when its log cannot be read
     * (a log in another format is skipped quietly).
     */
    private static List<String> filesRead(Map<Integer, Optional<FileSourceLogView>> logs, int source, Path folder,
            String start, String end) {
        OptionalLong to = FileSourceLogView.logOffset(end);
        OptionalLong from = start == null ? OptionalLong.of(-1) : FileSourceLogView.logOffset(start);
        if (to.isEmpty() || from.isEmpty()) {
            return null;
        }
        Optional<FileSourceLogView> log = logs.computeIfAbsent(source, k -> openLog(folder));
        if (log.isEmpty()) {
            return null;
        }
        List<FileSourceLogView.Batch> logged;
        try {
            logged = log.get().batches(from.getAsLong(), to.getAsLong());
        } catch (UncheckedIOException notThisSourcesLog) {
            return null;
        }
        if (logged.isEmpty() && from.getAsLong() != to.getAsLong()) {
            return null;
        }
        List<String> files = new ArrayList<>();
        logged.forEach(b -> b.files().forEach(f -> files.add(f.path())));
        return files;
    }
}
