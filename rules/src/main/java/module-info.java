/**
 * Cepheus rules: patterns written as data (the JSON rule format and its condition expressions), compiled into
 * patterns for record, JavaBean or map events, and patterns written back as JSON. Depends on the pattern API and
 * Jackson's streaming parser only.
 */
module io.cepheus.rules {
    requires transitive io.cepheus.pattern;
    requires com.fasterxml.jackson.core;

    exports io.cepheus.rules;
}
