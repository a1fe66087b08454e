package io.cepheus.examples.cli;

import java.util.Map;

/** What the runner reads of an alert output for its progress line and summary: how many alerts, per rule. */
public interface AlertCounts {

    /** @return alerts so far */
    long total();

    /** @return alerts so far per rule, by rule name */
    Map<String, Long> perRule();
}
