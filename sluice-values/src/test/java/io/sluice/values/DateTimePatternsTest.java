package io.sluice.values;

import org.junit.jupiter.api.Test;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Spark's datetime patterns: conversion, strictness, defaults, refused letters. */
class DateTimePatternsTest {
    private static Instant parse(String pattern, String text, ZoneId zone) {
        return SparkTimestamps.instant(DateTimePatterns.parseMicros(DateTimePatterns.parser(pattern, Locale.US), text,
                zone));
    }

    @Test
    void missingFieldsDefaultTo1970MidnightAndTheZoneGiven() {
        assertThat(parse("HH:mm", "13:45", ZoneOffset.UTC)).isEqualTo(Instant.parse("1970-01-01T13:45:00Z"));
        assertThat(parse("dd/MM/yyyy", "02/01/2020", ZoneId.of("Europe/Paris")))
                .isEqualTo(Instant.parse("2020-01-01T23:00:00Z"));
        assertThat(parse("yyyy-MM-dd HH:mm XXX", "2020-01-02 03:04 +02:00", ZoneOffset.UTC))
                .isEqualTo(Instant.parse("2020-01-02T01:04:00Z"));
        assertThat(DateTimePatterns.parseDate(DateTimePatterns.parser("yyyy-MM", Locale.US), "2020-06"))
                .isEqualTo(LocalDate.of(2020, 6, 1));
    }

    @Test
    void aRunOfSReadsOneToThatManyDigitsAndParsingIsStrictAndCaseInsensitive() {
        String p = "yyyy-MM-dd HH:mm:ss.SSS";
        assertThat(parse(p, "2020-01-02 03:04:05.1", ZoneOffset.UTC)).isEqualTo(Instant.parse("2020-01-02T03:04:05.100Z"));
        assertThat(parse(p, "2020-01-02 03:04:05.123", ZoneOffset.UTC))
                .isEqualTo(Instant.parse("2020-01-02T03:04:05.123Z"));
        assertThat(parse("MMM d, yyyy", "JAN 2, 2020", ZoneOffset.UTC)).isEqualTo(Instant.parse("2020-01-02T00:00:00Z"));
        assertThatThrownBy(() -> parse(p, "2020-01-02 03:04:05.1234", ZoneOffset.UTC))
                .isInstanceOf(DateTimeException.class);
        assertThatThrownBy(() -> parse("yyyy-MM-dd", "2021-02-29", ZoneOffset.UTC)).isInstanceOf(DateTimeException.class);
        assertThatThrownBy(() -> parse("yyyy-MM-dd", "2020-01-01 trailing", ZoneOffset.UTC))
                .isInstanceOf(DateTimeException.class);
    }

    @Test
    void sparksRefusedLettersAndTheProlepticYear() {
        assertThatThrownBy(() -> DateTimePatterns.parser("YYYY", Locale.US)).hasMessage("All week-based patterns are "
                + "unsupported since Spark 3.0, detected: Y, Please use the SQL function EXTRACT instead");
        assertThatThrownBy(() -> DateTimePatterns.parser("EEE yyyy", Locale.US))
                .hasMessage("Illegal pattern character: E");
        assertThat(DateTimePatterns.formatter("EEE yyyy", Locale.US, ZoneOffset.UTC)
                .format(Instant.parse("2020-01-01T00:00:00Z"))).isEqualTo("Wed 2020");
        assertThat(DateTimePatterns.formatter("yyyy-MM-dd", Locale.US, ZoneOffset.UTC)
                .format(LocalDate.of(-1, 1, 1))).isEqualTo("-0001-01-01");
        assertThat(DateTimePatterns.formatter("G yyyy", Locale.US, ZoneOffset.UTC)
                .format(LocalDate.of(-1, 1, 1))).isEqualTo("BC 0002");
    }
}
