package io.sluice.python;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * sluice_rows.py's encoder on a real python3 (encoder_cases.py.txt; not a .py, so that the folder of test sources
 * holds only sources): the fast paths (a column packed in one call, no scan for None) fall back to the general one on
 * a None or a value of another type, so the bytes and the errors are those of the general path: the column, its type
 * and the value's Python type; out-of-range values (a float beyond FLOAT's range too); rows of another width, also
 * when a short and a long row together have the right total.
 */
class SluiceRowsTest {
    @Test
    void everyCaseEncodesOrFailsNamingTheColumnAndThePythonType() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(PythonRuntime.python(), "-B",
                PythonSourceTest.py("encoder_cases.py.txt").toString());
        pb.environment().put("PYTHONPATH", PythonRuntime.home().resolve("worker").toString());
        pb.redirectErrorStream(true);
        Process p = pb.start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(p.waitFor()).isZero();
        String width = "RowTypeError: [DATA_SOURCE_RETURN_SCHEMA_MISMATCH] Return schema mismatch in the result from "
                + "'read' method. Expected: %d columns, Found: %d columns. Make sure the returned values match the "
                + "required output schema.";
        assertThat(lines).containsExactly(
                "RowTypeError: column 'l' of type BIGINT got a value of Python type str: '2'",
                "RowTypeError: column 'i' of type INT got 2147483648, which is out of its range",
                "RowTypeError: column 'i' of type INT got a value of Python type float: 1.5",
                "RowTypeError: column 's' of type STRING got a value of Python type int: 3",
                // 3 rows; nulls 0 1 0; lengths 1 and 2; "a", "é" in UTF-8
                "00000003" + "01" + "000100" + "00000001" + "00000002" + "61" + "c3a9",
                // 2 rows; l: nulls 1 0, the long 1 (True); d: nulls 0 1, the double 1.0
                "00000002" + "01" + "0100" + "0000000000000001" + "01" + "0001" + "3ff0000000000000",
                "RowTypeError: column 'b' of type BOOLEAN got a value of Python type int: 1",
                "00000003" + "01" + "000100" + "01" + "00",
                String.format(width, 3, 2),
                String.format(width, 2, 3),
                "RowTypeError: column 'f' of type FLOAT got 1e+300, which is out of its range",
                "RowTypeError: column 'x' of type BINARY got a value of Python type str: 'y'");
    }
}
