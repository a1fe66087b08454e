/**
 * Rules as data: a pattern written as JSON, with an id and a version, compiled into a
 * {@link io.cepheus.pattern.Pattern} for the events it will see.
 *
 * <h2>A rule</h2>
 * <pre>{@code
 * {
 *   "id": "card-testing",
 *   "version": 2,
 *   "description": "a tiny charge then a large one on the same card within a minute",
 *   "pattern": {
 *     "name": "large", "type": "COMPOSITE", "version": 1,
 *     "quantifier": {"consumingStrategy": "SKIP_TILL_NEXT", "properties": ["SINGLE"], "times": null, "untilCondition": null},
 *     "condition": null,
 *     "nodes": [
 *       {"name": "small", "type": "ATOMIC",
 *        "quantifier": {"consumingStrategy": "SKIP_TILL_NEXT", "properties": ["SINGLE"], "times": null, "untilCondition": null},
 *        "condition": {"type": "EXPRESSION", "expression": "type == 'P' && amount < 1.00"}},
 *       {"name": "large", "type": "ATOMIC",
 *        "quantifier": {"consumingStrategy": "SKIP_TILL_NEXT", "properties": ["SINGLE"], "times": null, "untilCondition": null},
 *        "condition": {"type": "EXPRESSION", "expression": "type == 'P' && amount > 500.00"}}
 *     ],
 *     "edges": [{"source": "small", "target": "large", "type": "SKIP_TILL_NEXT"}],
 *     "window": {"type": "FIRST_AND_LAST", "time": {"unit": "MINUTES", "size": 1}},
 *     "afterMatchStrategy": {"type": "SKIP_PAST_LAST_EVENT", "patternName": null}
 *   }
 * }
 * }</pre>
 *
 * <p>The envelope holds {@code id} (a non-blank string), {@code version} (an integer from 1), an optional
 * {@code description} and the {@code pattern}. A document that holds only a graph is a rule whose id is its file's
 * name without {@code .json} (read from a string: the graph's {@code name}, or {@code "rule"}) and whose version is 1.
 *
 * <p>The pattern is the JSON graph of the dynamic-CEP products built on Apache Flink: a {@code COMPOSITE} node whose
 * {@code nodes} are its stages ({@code ATOMIC}) and groups (a {@code COMPOSITE} inside {@code nodes}), whose
 * {@code edges} order them and give each one's contiguity to the one before ({@code STRICT} = {@code next},
 * {@code SKIP_TILL_NEXT} = {@code followedBy}, {@code SKIP_TILL_ANY} = {@code followedByAny}, {@code NOT_NEXT},
 * {@code NOT_FOLLOW}), with the whole pattern's {@code window} and {@code afterMatchStrategy}. A quantifier's
 * {@code properties} hold one of {@code SINGLE}, {@code TIMES} ({@code times(from, to)}) and {@code LOOPING}
 * ({@code timesOrMore(from)}; {@code oneOrMore} is from 1), and may add {@code OPTIONAL} and {@code GREEDY}; its
 * {@code consumingStrategy} is the contiguity between the stage's own events ({@code STRICT} =
 * {@code consecutive()}, {@code SKIP_TILL_ANY} = {@code allowCombinations()}); {@code untilCondition} ends a loop.
 * Conditions are {@code EXPRESSION}s (below), {@code AVIATOR} (read as {@code EXPRESSION}: the common subset means
 * the same, anything else is refused by name), {@code CLASS} names of conditions the application registered
 * ({@link io.cepheus.rules.NamedConditions}: a name is a key, never a class loaded from the rule), Flink's
 * {@code RichAndCondition} / {@code RichOrCondition} / {@code RichNotCondition} with {@code nestedConditions}, Flink's
 * {@code SubtypeCondition} with a registered {@code subClassName}, and the older {@code CUSTOM_ARGS} form. A
 * {@code GROOVY} condition is refused: a rule file never carries code.
 *
 * <h2>Expressions</h2>
 * <pre>
 * expression     := or
 * or             := and (('||' | 'or') and)*
 * and            := not (('&amp;&amp;' | 'and') not)*
 * not            := ('!' | 'not') not | comparison
 * comparison     := additive ( ('==' | '!=' | '&lt;' | '&lt;=' | '&gt;' | '&gt;=') additive
 *                            | ['not'] 'in' '(' literal (',' literal)* ')' )?
 * additive       := multiplicative (('+' | '-') multiplicative)*
 * multiplicative := unary (('*' | '/' | '%') unary)*
 * unary          := '-' unary | primary
 * primary        := literal | field | aggregate | '(' expression ')'
 * literal        := integer | decimal | 'single' | "double" quoted string | true | false | null | nil
 * field          := name ('.' name)*
 * aggregate      := 'count' '(' stage ')' | ('sum' | 'min' | 'max' | 'avg' | 'first' | 'last') '(' stage '.' field ')'
 * </pre>
 * A name reads a field of the event being matched: a record component, a JavaBean getter ({@code getAmount()},
 * {@code isOk()}), a public field, a public no-argument method of that name, or a key of a map event;
 * {@code card.country} reads nested values (through a {@code Map} or an {@code Object} value, a key looked up when
 * the event is read). An aggregate reads the events a stage (this one or an earlier one) has already taken in the
 * partial match: {@code count} and {@code sum} are 0 when it took none, the others null. A condition with an
 * aggregate is an iterative condition, one without a simple condition (evaluated once per event however many partial
 * matches wait). A simple condition that begins with field tests ({@code type == 'A' && value >= 10 && ...}: a field
 * compared with a constant, or in a list of constants, before anything else) states them as requirements
 * ({@link io.cepheus.pattern.IndexableCondition}), by which a rule set running many rules indexes it; the tests after
 * the first conjunct of another kind are not stated, since {@code &&} reaches them only past that conjunct, which may
 * fail on an event where they would not. On map events a key compared with a number ({@code amount > 100}) is stated
 * too, as the last: its value may be a text, on which the comparison fails.
 *
 * <h2>Where the format leaves the choice open</h2>
 * <ul>
 *   <li>Types. Against a class, field types are known when the rule is compiled, and what cannot be right is refused
 *       then (a string compared with a number, {@code '+'} on a string, ordering booleans, a condition that is not a
 *       boolean). A {@code char} field reads as a one-character string ({@code type == 'A'}), an enum constant or a
 *       {@code Character} as its string. Map values are typed when read: a mismatch is an error for that event,
 *       which becomes a dead letter ({@link io.cepheus.rules.ExpressionException}).</li>
 *   <li>Numbers. Integers are 64-bit and exact: an overflow is an error, not a wrapped number; {@code /} of two
 *       integers truncates, as Java's does; a decimal operand makes the operation decimal ({@code double}); a
 *       division by zero is an error for both, as is a decimal result that is not finite. Numbers compare by value
 *       across integer and decimal types, exactly ({@code 9007199254740993 > 9007199254740992.0}); a NaN compares
 *       false with everything, as null does.</li>
 *   <li>Null. A comparison with null on either side is false (also {@code !=}), except {@code == null} and
 *       {@code != null}; arithmetic with null is null; a null in a boolean position ({@code flag && ...}, {@code !flag})
 *       is false; a value is never {@code in} a list, nor {@code not in} one, when it is null. {@code sum},
 *       {@code min}, {@code max} and {@code avg} leave null values out, as SQL does. (Aviator orders {@code nil}
 *       below every value; this language does not order it.)</li>
 *   <li>Strings compare by {@link java.lang.String#compareTo} (UTF-16 code units). Escapes: {@code \\ \' \" \n \t \r}.
 *       {@code in} lists may hold negative numbers.</li>
 *   <li>Reserved words: {@code and or not in true false null nil}; the aggregate names are functions only before
 *       {@code (}. Comparisons do not chain. Expressions are at most 65,536 characters and 200 levels deep.</li>
 *   <li>Defaults. A missing or null {@code quantifier} is one event; a missing {@code consumingStrategy} is
 *       {@code SKIP_TILL_NEXT}; a missing {@code afterMatchStrategy} is {@code NO_SKIP}; a missing {@code edges} is
 *       none (a one-stage pattern); the graph's {@code version}, if given, must be 1.</li>
 *   <li>Strictness. Unknown fields are errors, except inside a member named {@code metadata} (anywhere), which is
 *       ignored; the rule's own {@code metadata} is kept ({@link io.cepheus.rules.Rule#metadata()}) and written back.
 *       Duplicate member names, nesting deeper than 64 levels and trailing content are errors. A {@code LOOPING}
 *       quantifier's {@code times.to} must equal {@code times.from}.</li>
 *   <li>The graph. Edges must chain every node into one sequence: one begin node, no branch, no cycle, none left
 *       out. Stage names are unique in the rule; a group's name needs only be unique among its siblings (the
 *       products name a group after its last stage). A NOT edge leads to a single stage. A group may carry its own
 *       quantifier (honoured, unlike the products, which drop it) and window; the skip strategy belongs to the
 *       outermost graph. The graph's {@code PREVIOUS_AND_CURRENT} window is the last stage's, as Flink's
 *       {@code pattern.within(d, PREVIOUS_AND_CURRENT)} is.</li>
 *   <li>Extensions. A stage may carry a {@code window} ({@code within} on that stage). {@code RichAndCondition} and
 *       {@code RichOrCondition} take two nested conditions or more, all of them evaluated in order.</li>
 *   <li>A quantifier's {@code times.windowTime} is the window between the stage's events,
 *       {@link io.cepheus.pattern.Pattern#times(int, int, java.time.Duration)} (and {@code timesOrMore},
 *       {@code oneOrMore} for {@code LOOPING}), with Flink 2.3's semantics: it bounds some of the waits only (not the
 *       one for a stage's last event, nor any on the first stage of a pattern); see that method. It belongs to
 *       {@code TIMES} and {@code LOOPING} quantifiers: a {@code SINGLE} stage has no {@code times}.</li>
 * </ul>
 *
 * <p>Every rejection is a {@link io.cepheus.rules.RuleFormatException} naming the rule's id, the JSON path
 * ({@code pattern.nodes[2].quantifier.times.from}) and, for a rule read from text, the line and column; an
 * expression's problem shows the expression with a caret under the column. Rules the pattern builder refuses are
 * refused with its words.
 */
package io.cepheus.rules;
