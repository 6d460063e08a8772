package io.sluice.iceberg;

import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/** Tables written with Iceberg's own Java API, for the tests: rows (id bigint, name string). */
final class TestTables {
    static final Schema SCHEMA = new Schema(
            Types.NestedField.optional(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()));

    private TestTables() {
    }

    static Table create(Path dir) {
        return new HadoopTables(new Configuration()).create(SCHEMA, PartitionSpec.unpartitioned(), dir.toString());
    }

    static Record row(long id, String name) {
        GenericRecord r = GenericRecord.create(SCHEMA);
        r.setField("id", id);
        r.setField("name", name);
        return r;
    }

    /** One data file holding ids {@code from..to} (inclusive), named "n<id>". */
    static DataFile file(Table t, long from, long to) {
        var out = t.io().newOutputFile(t.location() + "/data/" + UUID.randomUUID() + ".parquet");
        DataWriter<Record> w = new GenericAppenderFactory(t.schema(), t.spec())
                .newDataWriter(EncryptedFiles.plainAsEncryptedOutput(out), FileFormat.PARQUET, null);
        try (w) {
            for (long i = from; i <= to; i++) {
                w.write(row(i, "n" + i));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toDataFile();
    }

    /** One append snapshot of these files; returns its id. */
    static long append(Table t, DataFile... files) {
        AppendFiles a = t.newAppend();
        for (DataFile f : files) {
            a.appendFile(f);
        }
        a.commit();
        return t.currentSnapshot().snapshotId();
    }

    /** One append snapshot of one file with ids from..to. */
    static long append(Table t, long from, long to) {
        return append(t, file(t, from, to));
    }

    static List<Long> ids(List<io.sluice.api.Row> rows) {
        return rows.stream().map(r -> r.getLong(0)).sorted().toList();
    }
}
