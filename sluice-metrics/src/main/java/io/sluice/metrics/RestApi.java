package io.sluice.metrics;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.core.CheckpointView;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.StreamingQueryStatus;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The JSON answers of {@code /api/v1/} (docs/rest-api.md), rendered on the server's threads at request time. */
final class RestApi {

    static final String JSON = "application/json; charset=utf-8";
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final String PREFIX = "/api/v1/queries";

    record Response(int status, String contentType, byte[] body) {
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private final Sluice sluice;
    private final QueryTracker tracker;

    RestApi(Sluice sluice, QueryTracker tracker) {
        this.sluice = sluice;
        this.tracker = tracker;
    }

    Response answer(String path) {
        if (path.endsWith("/") && path.length() > 1) {
            path = path.substring(0, path.length() - 1);
        }
        if (PREFIX.equals(path)) {
            return ok(g -> {
                g.writeStartObject();
                g.writeArrayFieldStart("queries");
                for (QueryTracker.Run r : tracker.runs()) {
                    if (tracker.latest(r.id) == r) {
                        query(g, r);
                    }
                }
                g.writeEndArray();
                g.writeEndObject();
            });
        }
        if (!path.startsWith(PREFIX + "/")) {
            return notFound("No such resource: " + path);
        }
        String[] parts = path.substring(PREFIX.length() + 1).split("/", -1);
        UUID id;
        try {
            id = UUID.fromString(parts[0]);
        } catch (IllegalArgumentException e) {
            return notFound("Not a query id: " + parts[0]);
        }
        QueryTracker.Run run = tracker.latest(id);
        if (run == null) {
            return notFound("No query with id " + id);
        }
        String rest = String.join("/", java.util.Arrays.copyOfRange(parts, 1, parts.length));
        switch (rest) {
            case "":
                return ok(g -> query(g, run));
            case "progress/last": {
                List<StreamingQueryProgress> recent = tracker.recent(run);
                return raw(recent.isEmpty() ? "null" : recent.get(recent.size() - 1).json());
            }
            case "progress/recent": {
                StringBuilder b = new StringBuilder("[");
                for (StreamingQueryProgress p : tracker.recent(run)) {
                    b.append(b.length() > 1 ? "," : "").append(p.json());
                }
                return raw(b.append(']').toString());
            }
            case "checkpoint":
                return checkpoint(run);
            default:
                return notFound("No such resource: " + path);
        }
    }

    private void query(JsonGenerator g, QueryTracker.Run r) throws IOException {
        StreamingQuery h = r.handle;
        String state = tracker.read(r, x -> x.state);
        String exception = tracker.read(r, x -> x.exception);
        List<StreamingQueryProgress> recent = tracker.recent(r);
        g.writeStartObject();
        g.writeStringField("id", r.id.toString());
        g.writeStringField("runId", r.runId.toString());
        g.writeStringField("name", r.name);
        g.writeStringField("state", state);
        g.writeStringField("startedAt", Instant.ofEpochMilli(r.startedMillis).toString());
        if (h != null && "active".equals(state)) {
            StreamingQueryStatus s = h.status();
            g.writeObjectFieldStart("status");
            g.writeStringField("message", s.message());
            g.writeBooleanField("isDataAvailable", s.isDataAvailable());
            g.writeBooleanField("isTriggerActive", s.isTriggerActive());
            g.writeEndObject();
        } else {
            g.writeNullField("status");
        }
        if (recent.isEmpty()) {
            g.writeNullField("lastBatchId");
        } else {
            g.writeNumberField("lastBatchId", recent.get(recent.size() - 1).batchId());
        }
        g.writeNumberField("numBatches", (long) tracker.read(r, x -> x.batches));
        g.writeNumberField("numInputRows", (long) tracker.read(r, x -> x.inputRows));
        g.writeNumberField("failures", tracker.failuresOf(r.id));
        g.writeStringField("exception", exception);
        Path chk = h == null ? null : h.checkpointLocation().orElse(null);
        g.writeStringField("checkpointLocation", chk == null ? null : chk.toString());
        g.writeEndObject();
    }

    private Response checkpoint(QueryTracker.Run run) {
        Path dir = run.handle == null ? null : run.handle.checkpointLocation().orElse(null);
        if (dir == null) {
            return notFound("The query " + run.id + " has no checkpoint this server can read");
        }
        CheckpointView v;
        try {
            v = CheckpointView.open(dir);
        } catch (RuntimeException e) {
            return notFound("The checkpoint " + dir + " cannot be read: " + e.getMessage());
        }
        return ok(g -> {
            g.writeStartObject();
            g.writeStringField("path", v.path().toString());
            g.writeStringField("queryId", v.queryId().orElse(null));
            g.writeStringField("metadataProblem", v.metadataProblem().orElse(null));
            g.writeArrayFieldStart("batches");
            for (CheckpointView.Batch b : v.batches()) {
                g.writeStartObject();
                g.writeNumberField("batchId", b.batchId());
                g.writeBooleanField("committed", b.committed());
                if (b.offsets() != null) {
                    g.writeNumberField("batchTimestampMs", b.offsets().batchTimestampMs());
                    g.writeNumberField("batchWatermarkMs", b.offsets().batchWatermarkMs());
                    g.writeArrayFieldStart("sources");
                    for (String s : b.offsets().sources()) {
                        if (s == null) {
                            g.writeNull();
                        } else {
                            g.writeRawValue(s);
                        }
                    }
                    g.writeEndArray();
                }
                g.writeStringField("problem", b.problem());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("committedBatchIds");
            for (long id : v.committedBatchIds()) {
                g.writeNumber(id);
            }
            g.writeEndArray();
            if (v.rerunBatchId().isPresent()) {
                g.writeNumberField("rerunBatchId", v.rerunBatchId().getAsLong());
            } else {
                g.writeNullField("rerunBatchId");
            }
            g.writeEndObject();
        });
    }

    private static Response ok(Body body) {
        return new Response(200, JSON, render(body));
    }

    private static Response raw(String json) {
        return new Response(200, JSON, SluiceServer.utf8(json));
    }

    private static Response notFound(String message) {
        return new Response(404, JSON, error(message));
    }

    static byte[] error(String message) {
        return render(g -> {
            g.writeStartObject();
            g.writeStringField("error", message);
            g.writeEndObject();
        });
    }

    private static byte[] render(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
