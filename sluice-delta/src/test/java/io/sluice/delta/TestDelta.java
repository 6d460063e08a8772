package io.sluice.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.types.StructType;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Tables for the tests: commits written through the sink, and hand-written remove, rewrite and schema commits. */
final class TestDelta {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TestDelta() {
    }

    /** One commit holding one file per element of {@code files} (each a list of rows); returns its version. */
    @SafeVarargs
    static long append(Path table, String ddl, List<String> partitionBy, List<Row>... files) throws Exception {
        DeltaSink sink = new DeltaSink(DeltaTable.open(table.toString()), StructType.fromDDL(ddl), partitionBy,
                UUID.randomUUID().toString());
        BatchWriter w = sink.beginBatch(0);
        List<Object> results = new ArrayList<>();
        int p = 0;
        for (List<Row> rows : files) {
            PartitionWriter pw = w.partitionWriter(p++);
            for (Row r : rows) {
                pw.write(r);
            }
            results.add(pw.commit());
        }
        w.commit(results);
        return latestVersion(table);
    }

    static long append(Path table, String ddl, Row... rows) throws Exception {
        return append(table, ddl, List.of(), List.of(rows));
    }

    static long latestVersion(Path table) {
        return new DeltaLogFiles(table).versions().lastKey();
    }

    static String tableId(Path table) {
        return DeltaTable.open(table.toString()).latestOrFail().getMetadata().getId();
    }

    /** The add actions of one commit. */
    static List<JsonNode> adds(Path table, long version) {
        return new DeltaLogFiles(table).actions(version).stream().filter(a -> a.has("add")).map(a -> a.get("add"))
                .toList();
    }

    /** A commit removing {@code removed} (an add of an earlier commit) and, when {@code readd}, adding it again. */
    static long removeCommit(Path table, JsonNode removed, boolean readd) throws Exception {
        long v = latestVersion(table) + 1;
        ObjectNode rm = JSON.createObjectNode();
        rm.put("path", removed.get("path").asText());
        rm.put("deletionTimestamp", System.currentTimeMillis());
        rm.put("dataChange", true);
        StringBuilder sb = new StringBuilder();
        sb.append(JSON.createObjectNode().set("remove", rm).toString()).append('\n');
        if (readd) {
            sb.append(JSON.createObjectNode().set("add", removed).toString()).append('\n');
        }
        sb.append("{\"commitInfo\":{\"timestamp\":").append(System.currentTimeMillis())
                .append(",\"operation\":\"DELETE\"}}\n");
        writeCommit(table, v, sb.toString());
        return v;
    }

    /** A commit setting the table's schema to {@code ddl} (as ALTER TABLE ADD COLUMNS does). */
    static long schemaCommit(Path table, String ddl) throws Exception {
        long v = latestVersion(table) + 1;
        JsonNode meta = null;
        for (long i = 0; i < v && meta == null; i++) {
            for (JsonNode a : new DeltaLogFiles(table).actions(i)) {
                if (a.has("metaData")) {
                    meta = a.get("metaData");
                }
            }
        }
        ObjectNode m = ((ObjectNode) meta).deepCopy();
        m.put("schemaString", io.delta.kernel.internal.types.DataTypeJsonSerDe.serializeStructType(
                DeltaTypes.toKernel(StructType.fromDDL(ddl), true)));
        String text = JSON.createObjectNode().set("metaData", m).toString() + "\n{\"commitInfo\":{\"timestamp\":"
                + System.currentTimeMillis() + ",\"operation\":\"ADD COLUMNS\"}}\n";
        writeCommit(table, v, text);
        return v;
    }

    /** As Delta's writers do on a local disk: the whole file appears at once (a running stream may be listing). */
    private static void writeCommit(Path table, long v, String text) throws java.io.IOException {
        Path f = new DeltaLogFiles(table).commitFile(v);
        Path tmp = f.resolveSibling("." + f.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, f, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** The end offset of batch {@code n} as the checkpoint logs it. */
    static String loggedEnd(Path checkpoint, long n) throws Exception {
        List<String> lines = Files.readAllLines(checkpoint.resolve("offsets").resolve(Long.toString(n)));
        return lines.get(lines.size() - 1);
    }

    static String offset(String tableId, long version, long index, boolean starting) {
        return new DeltaSourceOffset(tableId, version, index, starting).json();
    }
}
