package io.sluice.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.time.Instant;
import java.util.List;

/**
 * What {@code sluice checkpoint show} found in a checkpoint, and its two renderings: text for people
 * ({@link #text()}) and a JSON document for tools ({@link #json()}).
 *
 * @param queryId         the query id from {@code metadata}; null when there is none or it is unreadable
 * @param metadataProblem why {@code metadata} could not be read, or null
 * @param batches         every batch in {@code offsets/}, ascending
 * @param rerunBatch      the newest logged batch when it has no commit (a restart re-runs it), else null
 */
record CheckpointReport(String dir, String queryId, String metadataProblem, List<Batch> batches, Long rerunBatch) {

    /** Where a source's range in a batch starts. */
    enum Start {
        /** Batch 0 (or the source had no offset yet): the source's initial position. */
        INITIAL,
        /** The end of the previous batch, as logged. */
        PREVIOUS_BATCH,
        /** The previous batch's offsets are purged or unreadable. */
        UNKNOWN
    }

    /**
     * @param timestampMs the batch's {@code batchTimestampMs}, or null
     * @param problem     why {@code offsets/N} could not be read (then {@code sources} is empty), or null
     */
    record Batch(long batchId, boolean committed, Long timestampMs, List<SourceRange> sources, String problem) {
    }

    /**
     * @param start the offset JSON the batch starts after (when {@code startKind} is PREVIOUS_BATCH), else null
     * @param end   the offset JSON the batch ends at, or null when the source had no offset ({@code -})
     * @param files the files a file source read in the batch; null when unknown (not a file source)
     */
    record SourceRange(int index, Start startKind, String start, String end, List<String> files) {
    }

    /** The text rendering: one block per batch, then the batch a restart would re-run. */
    String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("Checkpoint: ").append(dir).append('\n');
        sb.append("Query id: ").append(queryId != null ? queryId
                : metadataProblem != null ? "unknown (cannot read metadata: " + metadataProblem + ")"
                : "unknown (no metadata file)").append('\n');
        if (batches.isEmpty()) {
            sb.append("Batches: none logged\n");
        } else {
            sb.append("Batches: ").append(batches.size()).append(" retained (")
                    .append(batches.get(0).batchId()).append(" to ")
                    .append(batches.get(batches.size() - 1).batchId()).append(")\n");
        }
        for (Batch b : batches) {
            sb.append("Batch ").append(b.batchId()).append(": ").append(b.committed() ? "committed" : "not committed");
            if (b.timestampMs() != null) {
                sb.append(", ").append(Instant.ofEpochMilli(b.timestampMs()));
            }
            sb.append('\n');
            if (b.problem() != null) {
                sb.append("  ").append(b.problem()).append('\n');
            }
            for (SourceRange s : b.sources()) {
                sb.append("  source ").append(s.index()).append(": ").append(startText(b, s)).append(" -> ")
                        .append(s.end() != null ? s.end() : "none").append('\n');
                if (s.files() != null) {
                    sb.append("    files read: ").append(s.files().size()).append('\n');
                    for (String f : s.files()) {
                        sb.append("      ").append(f).append('\n');
                    }
                }
            }
        }
        sb.append("Batch a restart re-runs: ").append(rerunBatch != null ? rerunBatch : "none").append('\n');
        return sb.toString();
    }

    private static String startText(Batch b, SourceRange s) {
        return switch (s.startKind()) {
            case INITIAL -> "initial";
            case PREVIOUS_BATCH -> s.start();
            case UNKNOWN -> "unknown (offsets/" + (b.batchId() - 1) + " is purged or unreadable)";
        };
    }

    /**
     * The JSON rendering, indented:
     * {@code {"checkpoint", "queryId", "metadataProblem"?, "batches":[{"batchId", "committed", "timestampMs",
     * "sources":[{"index", "startKind", "start", "end", "files"?}], "problem"?}], "rerunBatch"}}. Offsets are
     * embedded as JSON values; {@code startKind} is {@code initial}, {@code previousBatch} or {@code unknown};
     * absent values are null.
     */
    String json() {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("checkpoint", dir.toString());
        root.put("queryId", queryId);
        if (metadataProblem != null) {
            root.put("metadataProblem", metadataProblem);
        }
        ArrayNode list = root.putArray("batches");
        for (Batch b : batches) {
            ObjectNode bn = list.addObject();
            bn.put("batchId", b.batchId());
            bn.put("committed", b.committed());
            bn.put("timestampMs", b.timestampMs());
            if (b.problem() != null) {
                bn.put("problem", b.problem());
            }
            ArrayNode sources = bn.putArray("sources");
            for (SourceRange s : b.sources()) {
                ObjectNode sn = sources.addObject();
                sn.put("index", s.index());
                sn.put("startKind", switch (s.startKind()) {
                    case INITIAL -> "initial";
                    case PREVIOUS_BATCH -> "previousBatch";
                    case UNKNOWN -> "unknown";
                });
                sn.set("start", offset(mapper, s.start()));
                sn.set("end", offset(mapper, s.end()));
                if (s.files() != null) {
                    ArrayNode files = sn.putArray("files");
                    s.files().forEach(files::add);
                }
            }
        }
        root.put("rerunBatch", rerunBatch);
        try {
            return mapper.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e); // a tree of plain nodes always serialises
        }
    }

    private static JsonNode offset(ObjectMapper mapper, String json) {
        if (json == null) {
            return mapper.nullNode();
        }
        try {
            JsonNode n = mapper.readTree(json);
            return n == null ? TextNode.valueOf(json) : n;
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(json);
        }
    }
}
