package io.sluice.python;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * sluice_rows.py's encoder (on a real python3) against the JVM's decoder, for the columns the decoder builds as
 * bytes and words (integers of each width, booleans, dates, timestamps, ASCII and other strings) mixed with nulls
 * and with object columns, across the builder's blocks of rows: every row comes back equal to its Row.of twin.
 */
class RowDecoderTest {
    @TempDir
    Path tmp;

    @Test
    void aBatchOfMixedColumnsAndNullsDecodesToTheRowsPythonEncoded() throws Exception {
        String ddl = "l BIGINT, s STRING, i INT, sh SMALLINT, b TINYINT, bo BOOLEAN, d DOUBLE, da DATE, ts TIMESTAMP";
        Path out = tmp.resolve("batch.bin");
        String script = "import sys, datetime as dt\n"
                + "from sluice_rows import Encoder\n"
                + "f = lambda n, t: {'name': n, 'type': t}\n"
                + "s = {'type': 'struct', 'fields': [f('l', 'long'), f('s', 'string'), f('i', 'integer'),"
                + " f('sh', 'short'), f('b', 'byte'), f('bo', 'boolean'), f('d', 'double'), f('da', 'date'),"
                + " f('ts', 'timestamp')]}\n"
                + "utc = dt.timezone.utc\n"
                + "rows = [(i * 2**33 - 5, ('a%d' % i) if i % 3 else ('é☃%d' % i if i % 2 else None),"
                + " None if i % 7 == 0 else -i, i % 300 - 150, i % 256 - 128, i % 2 == 0,"
                + " i / 4, dt.date(2024, 2, 29) + dt.timedelta(days=i),"
                + " None if i % 5 == 0 else dt.datetime(1969, 12, 31, 23, 59, 59, i, tzinfo=utc)) for i in range(600)]\n"
                + "open(sys.argv[1], 'wb').write(Encoder(s).encode(rows))\n";
        ProcessBuilder pb = new ProcessBuilder(PythonRuntime.python(), "-c", script, out.toString()).inheritIO();
        pb.environment().put("PYTHONPATH", PythonRuntime.home().resolve("worker").toString());
        assertThat(pb.start().waitFor()).isZero();

        Row[] rows = new RowDecoder(StructType.fromDDL(ddl)).decode(Files.readAllBytes(out));

        assertThat(rows).hasSize(600);
        for (int i = 0; i < 600; i++) {
            String s = i % 3 != 0 ? "a" + i : i % 2 != 0 ? "é☃" + i : null;
            Instant ts = i % 5 == 0 ? null : Instant.parse("1969-12-31T23:59:59Z").plusNanos(i * 1000L);
            Row expected = Row.of(i * (1L << 33) - 5, s, i % 7 == 0 ? null : -i, (short) (i % 300 - 150),
                    (byte) (i % 256 - 128), i % 2 == 0, i / 4.0, LocalDate.of(2024, 2, 29).plusDays(i), ts);
            assertThat(rows[i]).as("row %d", i).isEqualTo(expected);
            assertThat(rows[i].getString(1)).isEqualTo(s);
        }
        assertThat(List.of(rows[3].getLong(0), rows[3].getInt(2))).isEqualTo(List.of(3 * (1L << 33) - 5, -3));
    }
}
