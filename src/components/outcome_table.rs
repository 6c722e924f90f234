//! The debrief's outcome tables: runs of the same scenario and seed side by side, by the
//! budget they spent, their fleet's cost and the minutes they paged. The par table (doing
//! nothing, the textbook, the best single action, and the trainee's run) and, in the build
//! with regions, the regional comparison are both one of these.

use leptos::prelude::*;

use crate::format::{self, format_value, Format, Value};
use crate::i18n::{t, Locale, Msg};

/// The attribute that keys a par table's rows (`data-par="textbook"`).
pub(crate) const PAR_ROW: &str = "data-par";

/// The attribute that keys a regional comparison's rows (`data-comparison="failover_off"`).
#[cfg(feature = "extended")]
pub(crate) const COMPARISON_ROW: &str = "data-comparison";

/// One run's outcome, in the figures the tables compare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Outcome {
    pub budget_spent: f64,
    pub cost: f64,
    pub minutes_paging: u32,
}

/// A share of the month's budget spent, in points of budget ("4.4 points").
pub(crate) fn budget_text(spent: f64) -> String {
    format::with_unit(Locale::default(), Msg::UnitBudgetPoints, spent * 100.0, 1)
}

/// A fleet cost, in dollars.
pub(crate) fn cost_text(cost: f64) -> String {
    format_value(Format::Dollars, Value::Number(cost))
}

/// Minutes, with their unit.
pub(crate) fn minutes_text(m: u32) -> String {
    format_value(Format::Minutes, Value::Number(f64::from(m)))
}

/// An outcome table: `class` and `field` (its `data-field`) say which, `caption` what it
/// compares; `rows` are its [`outcome_row`]s, the run as played first.
pub(crate) fn outcome_table(
    class: &'static str,
    field: Option<&'static str>,
    caption: Msg,
    rows: impl IntoView,
) -> impl IntoView {
    view! {
        <table class=class data-field=field>
            <caption class="muted">{t(caption)}</caption>
            <thead>
                <tr>
                    <th scope="col">{t(Msg::ParWhat)}</th>
                    <th scope="col">{t(Msg::ParBudget)}</th>
                    <th scope="col">{t(Msg::DebriefCost)}</th>
                    <th scope="col">{t(Msg::ParPaging)}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// One run of an outcome table: keyed by `key` in the attribute `row` ([`PAR_ROW`] or the
/// comparison's), headed by `name`.
pub(crate) fn outcome_row(
    row: &'static str,
    key: &'static str,
    name: impl IntoView,
    outcome: Outcome,
) -> impl IntoView {
    view! {
        <tr>
            <th scope="row">{name}</th>
            <td>{budget_text(outcome.budget_spent)}</td>
            <td>{cost_text(outcome.cost)}</td>
            <td>{minutes_text(outcome.minutes_paging)}</td>
        </tr>
    }
    .attr(row, key)
}
