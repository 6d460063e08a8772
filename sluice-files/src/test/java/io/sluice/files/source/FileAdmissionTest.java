package io.sluice.files.source;

import io.sluice.api.ReadLimit;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The file source's admission control as a pure function: exact selections, no file system. */
class FileAdmissionTest {
    private static final FileAdmission.Caps NONE = FileAdmission.Caps.of(ReadLimit.allAvailable());

    /** Files named a, b, c... with these sizes, modified at 1, 2, 3... */
    private static List<ListedFile> files(long... sizes) {
        List<ListedFile> out = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            String name = String.valueOf((char) ('a' + i));
            out.add(new ListedFile(Path.of("/in", name), "file:///in/" + name, sizes[i], i + 1));
        }
        return out;
    }

    private static List<String> names(List<ListedFile> files) {
        return files == null ? null : files.stream().map(f -> f.path().getFileName().toString()).toList();
    }

    private static FileAdmission.Selection admit(List<ListedFile> candidates, ReadLimit limit) {
        return FileAdmission.admit(candidates, new FileAdmission.Limits(FileAdmission.Caps.of(limit), false, 10_000,
                0.2f));
    }

    @Test
    void withoutLimitsABatchTakesEverythingAndCachesNothing() {
        FileAdmission.Selection s = admit(files(10, 20, 30), ReadLimit.allAvailable());
        assertThat(names(s.taken())).containsExactly("a", "b", "c");
        assertThat(s.rest()).isEmpty();
        assertThat(s.cached()).isNull();
    }

    @Test
    void maxFilesPerTriggerTakesThatManyAndCachesTheRest() {
        FileAdmission.Selection s = admit(files(1, 1, 1, 1, 1), ReadLimit.maxFiles(2));
        assertThat(names(s.taken())).containsExactly("a", "b");
        assertThat(names(s.cached())).containsExactly("c", "d", "e");
    }

    @Test
    void maxBytesPerTriggerStopsAtTheFirstFileThatDoesNotFitButAlwaysTakesOne() {
        FileAdmission.Selection s = admit(files(100, 100, 100, 100), ReadLimit.maxBytes(250));
        assertThat(names(s.taken())).containsExactly("a", "b");
        assertThat(names(s.cached())).containsExactly("c", "d");
        // A file larger than the cap is a batch of its own; the small file after it waits.
        assertThat(names(admit(files(1_000, 10), ReadLimit.maxBytes(250)).taken())).containsExactly("a");
        // The first that does not fit ends the batch even if a later one would fit.
        assertThat(names(admit(files(100, 200, 10), ReadLimit.maxBytes(250)).taken())).containsExactly("a");
    }

    @Test
    void bothCapsTheTighterWins() {
        ReadLimit both = ReadLimit.composite(ReadLimit.maxFiles(3), ReadLimit.maxBytes(250));
        assertThat(names(admit(files(100, 100, 100, 100), both).taken())).containsExactly("a", "b");
        assertThat(names(admit(files(50, 50, 50, 50), both).taken())).containsExactly("a", "b", "c");
        // Row limits and minimums mean nothing for files.
        assertThat(names(admit(files(1, 1, 1), ReadLimit.composite(ReadLimit.minRows(10, 1_000),
                ReadLimit.maxRows(1))).taken())).containsExactly("a", "b", "c");
    }

    @Test
    void sizesThatOverflowStopTheBatch() {
        assertThat(names(admit(files(Long.MAX_VALUE - 1, 10), ReadLimit.maxFiles(5)).taken())).containsExactly("a");
    }

    @Test
    void aRestTooSmallForABatchOfOrdinarySizeIsListedAgain() {
        // 1 file left < 4 x 0.5: not cached, so that new files join it at the next listing.
        FileAdmission.Limits half = new FileAdmission.Limits(FileAdmission.Caps.of(ReadLimit.maxFiles(4)), false,
                10_000, 0.5f);
        assertThat(FileAdmission.admit(files(1, 1, 1, 1, 1), half).cached()).isNull();
        // 1 >= 4 x 0.2: cached.
        assertThat(names(admit(files(1, 1, 1, 1, 1), ReadLimit.maxFiles(4)).cached())).containsExactly("e");
        // Bytes: 100 left < 250 x 0.5; 200 left >= 250 x 0.5.
        FileAdmission.Limits bytes = new FileAdmission.Limits(FileAdmission.Caps.of(ReadLimit.maxBytes(250)), false,
                10_000, 0.5f);
        assertThat(FileAdmission.admit(files(100, 100, 100), bytes).cached()).isNull();
        assertThat(names(FileAdmission.admit(files(100, 100, 100, 100), bytes).cached())).containsExactly("c", "d");
    }

    @Test
    void maxCachedFilesBoundsTheCacheAndZeroTurnsItOff() {
        FileAdmission.Caps two = FileAdmission.Caps.of(ReadLimit.maxFiles(1));
        assertThat(names(FileAdmission.admit(files(1, 1, 1, 1, 1), new FileAdmission.Limits(two, false, 2, 0.2f))
                .cached())).containsExactly("b", "c");
        FileAdmission.Selection off = FileAdmission.admit(files(1, 1, 1), new FileAdmission.Limits(two, false, 0,
                0.2f));
        assertThat(names(off.taken())).containsExactly("a");
        assertThat(names(off.rest())).containsExactly("b", "c");
        assertThat(off.cached()).isNull();
    }

    @Test
    void latestFirstTakesTheNewestAndNeverCaches() {
        List<ListedFile> candidates = files(1, 1, 1, 1);
        FileAdmission.order(candidates, true);
        assertThat(names(candidates)).containsExactly("d", "c", "b", "a");
        FileAdmission.Selection s = FileAdmission.admit(candidates, new FileAdmission.Limits(
                FileAdmission.Caps.of(ReadLimit.maxFiles(2)), true, 10_000, 0.2f));
        assertThat(names(s.taken())).containsExactly("d", "c");
        assertThat(s.cached()).isNull();
    }

    @Test
    void filesAreOrderedByModificationTimeThenUri() {
        List<ListedFile> candidates = new ArrayList<>(List.of(
                new ListedFile(Path.of("/in/z"), "file:///in/z", 1, 5),
                new ListedFile(Path.of("/in/y"), "file:///in/y", 1, 7),
                new ListedFile(Path.of("/in/x"), "file:///in/x", 1, 5)));
        FileAdmission.order(candidates, false);
        assertThat(names(candidates)).containsExactly("x", "z", "y");
        FileAdmission.order(candidates, true);
        assertThat(names(candidates)).containsExactly("y", "x", "z");
    }

    @Test
    void maxFileAgeDropsFilesOlderThanTheWatermark() {
        List<ListedFile> fixed = files(1, 1, 1, 1); // modified at 1, 2, 3, 4
        assertThat(FileAdmission.tooOld(fixed.get(1), 3)).isTrue();
        assertThat(FileAdmission.tooOld(fixed.get(2), 3)).isFalse(); // at the watermark is still new
        // availableNow walks the list fixed at start: from position 1, files at 2 are below watermark 3.
        assertThat(FileAdmission.skipTooOld(fixed, 1, 3)).isEqualTo(2);
        assertThat(FileAdmission.skipTooOld(fixed, 0, Long.MIN_VALUE)).isZero();
        assertThat(FileAdmission.skipTooOld(fixed, 0, 100)).isEqualTo(4);
    }

    @Test
    void capsOfTheReadLimits() {
        assertThat(NONE.capped()).isFalse();
        assertThat(FileAdmission.Caps.of(ReadLimit.composite(ReadLimit.maxFiles(5), ReadLimit.maxFiles(3),
                ReadLimit.maxBytes(9)))).isEqualTo(new FileAdmission.Caps(3, 9));
        assertThat(FileAdmission.Caps.of(ReadLimit.maxFiles(2)).fit(files(1, 1, 1), 2)).isEqualTo(1);
    }
}
