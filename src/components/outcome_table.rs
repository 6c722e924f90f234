//! The debrief's outcome tables: runs of the same scenario and seed side by side, by the
//! budget they spent, their fleet's cost and the minutes they paged. The par table (doing
//! nothing, the textbook, the best single action, and the trainee's run) and, in the build
//! with regions, the regional comparison are both one of these.

use leptos::prelude::*;
use leptos::tachys::view::add_attr::AddAnyAttr;

use crate::format::{self, format_value, Format, Value};
use crate::i18n::{t, Locale, Msg};

/// One run's outcome, in the figures the tables compare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Outcome {
    pub budget_spent: f64,
    pub cost: f64,
    pub minutes_paging: u32,
}

/// A share of the month's budget spent, in points of budget ("4.4 points").
pub(crate) fn budget_text(spent: f64) -> String {
    format::with_unit(Locale::page(), Msg::UnitBudgetPoints, spent * 100.0, 1)
}

/// A fleet cost, in dollars.
pub(crate) fn cost_text(cost: f64) -> String {
    format_value(Format::Dollars, Value::Number(cost))
}

/// Minutes, with their unit.
pub(crate) fn minutes_text(m: u32) -> String {
    format_value(Format::Minutes, Value::Number(f64::from(m)))
}

/// An outcome table: `class` says which, `caption` (in words) what it compares; `rows` are
/// its [`outcome_row`]s, the run as played first. The caller may add attributes to the table
/// (the regional comparison's `data-field`).
pub(crate) fn outcome_table(
    class: &'static str,
    caption: &'static str,
    rows: impl IntoView,
) -> impl IntoView + AddAnyAttr {
    view! {
        <table class=class>
            <caption class="muted">{caption}</caption>
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

/// One run of an outcome table, headed by `name`. The caller keys it (`data-par="textbook"`
/// in the par table, `data-comparison="failover_off"` in the regional comparison).
pub(crate) fn outcome_row(name: impl IntoView, outcome: Outcome) -> impl IntoView + AddAnyAttr {
    view! {
        <tr>
            <th scope="row">{name}</th>
            <td>{budget_text(outcome.budget_spent)}</td>
            <td>{cost_text(outcome.cost)}</td>
            <td>{minutes_text(outcome.minutes_paging)}</td>
        </tr>
    }
}
