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
 * @param state           each stateful operator's state ({@code state/<id>/}), by id; empty for a stateless query
 */
record CheckpointReport(String dir, String queryId, String metadataProblem, List<Batch> batches, Long rerunBatch,
                        List<StateOperator> state) {

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

    /**
     * A stateful operator's state on disk.
     *
     * @param name          its {@code operatorName} ({@code stateStoreSave}, {@code dedupe}...), or null when
     *                      {@code _metadata/metadata} cannot be read ({@code problem} says why)
     * @param numPartitions the state partitions its metadata declares, or null
     * @param store         the state store the query runs with (the offset log's providerClass, else the default)
     * @param version       the latest committed version, the highest of its partitions' (batch N commits N + 1)
     * @param files         files under {@code state/<id>/}, its {@code _metadata} included
     * @param bytes         their bytes
     * @param rows          the rows of the latest versions, summed, when the store tells every partition's; else null
     */
    record StateOperator(int id, String name, Integer numPartitions, String store, long version, long files,
                         long bytes, Long rows, List<StatePartition> partitions, String problem) {
    }

    /** One partition folder {@code state/<op>/<partition>/}; {@code rows} null when the store cannot tell them. */
    record StatePartition(int partition, long version, long files, long bytes, Long rows) {
    }

    /** The text rendering: one block per batch, then the batch a restart would re-run, then the state. */
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
        if (!state.isEmpty()) {
            sb.append("State: ").append(state.size()).append(state.size() == 1 ? " operator" : " operators")
                    .append(", store ").append(state.get(0).store()).append('\n');
        }
        for (StateOperator op : state) {
            sb.append("  operator ").append(op.id()).append(" (").append(op.name() != null ? op.name() : "unknown")
                    .append("): ").append(op.partitions().size()).append(" partitions, version ").append(op.version())
                    .append(", ").append(op.files()).append(" files, ").append(op.bytes()).append(" bytes, ")
                    .append(rows(op.rows())).append('\n');
            if (op.problem() != null) {
                sb.append("    ").append(op.problem()).append('\n');
            }
            for (StatePartition p : op.partitions()) {
                sb.append("    partition ").append(p.partition()).append(": version ").append(p.version())
                        .append(", ").append(p.files()).append(" files, ").append(p.bytes()).append(" bytes, ")
                        .append(rows(p.rows())).append('\n');
            }
        }
        return sb.toString();
    }

    private static String rows(Long rows) {
        return rows == null ? "rows unknown" : rows + (rows == 1 ? " row" : " rows");
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
     * "sources":[{"index", "startKind", "start", "end", "files"?}], "problem"?}], "rerunBatch", "state":[{"operatorId",
     * "operatorName", "numPartitions", "store", "version", "files", "bytes", "rows", "problem"?, "partitions":
     * [{"partition", "version", "files", "bytes", "rows"}]}]}}. Offsets are
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
        ArrayNode ops = root.putArray("state");
        for (StateOperator op : state) {
            ObjectNode on = ops.addObject();
            on.put("operatorId", op.id());
            on.put("operatorName", op.name());
            on.put("numPartitions", op.numPartitions());
            on.put("store", op.store());
            on.put("version", op.version());
            on.put("files", op.files());
            on.put("bytes", op.bytes());
            on.put("rows", op.rows());
            if (op.problem() != null) {
                on.put("problem", op.problem());
            }
            ArrayNode parts = on.putArray("partitions");
            for (StatePartition p : op.partitions()) {
                ObjectNode pn = parts.addObject();
                pn.put("partition", p.partition());
                pn.put("version", p.version());
                pn.put("files", p.files());
                pn.put("bytes", p.bytes());
                pn.put("rows", p.rows());
            }
        }
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
