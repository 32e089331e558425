//! The shape of a parsed query: the one rule for what counts as a disjunction, and reshaping a
//! query without changing what it matches or how it scores.
//!
//! Tantivy's parser turns `a b` over the title and text fields into a disjunction of
//! per-term disjunctions ((title:a OR text:a) OR (title:b OR text:b)). The sum of sums is the
//! same score as one flat disjunction of the four term queries, but only a flat disjunction of
//! term queries lets tantivy skip blocks that cannot reach the top k (block-max WAND); the nested
//! form scores every match.

use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::Term;

/// The clauses of a disjunction: a boolean query of at least one clause, every clause optional,
/// one match enough. None for anything else (a required or excluded clause, a minimum above one,
/// any other query). Every "is this a disjunction" of the search asks this.
pub fn disjuncts(query: &dyn Query) -> Option<&[(Occur, Box<dyn Query>)]> {
    let boolean = query.downcast_ref::<BooleanQuery>()?;
    let clauses = boolean.clauses();
    let any_one_matches = boolean.get_minimum_number_should_match() <= 1 && clauses.iter().all(|(occur, _)| *occur == Occur::Should);
    (!clauses.is_empty() && any_one_matches).then_some(clauses)
}

/// The terms of a term query or of a disjunction of term queries (bare query words, once
/// flattened): what block-max WAND drives and the postings count decodes. None for anything
/// else (a phrase among the words, required or excluded clauses, filters).
pub fn term_disjunction(query: &dyn Query) -> Option<Vec<Term>> {
    if let Some(term) = query.downcast_ref::<TermQuery>() {
        return Some(vec![term.term().clone()]);
    }
    disjuncts(query)?.iter().map(|(_, clause)| clause.downcast_ref::<TermQuery>().map(|term| term.term().clone())).collect()
}

/// One flat disjunction when the query is disjunctions all the way down; otherwise unchanged.
pub fn flatten_disjunction(query: Box<dyn Query>) -> Box<dyn Query> {
    let mut leaves = Vec::new();
    if !collect_disjuncts(query.as_ref(), &mut leaves) || leaves.len() < 2 {
        return query;
    }
    Box::new(BooleanQuery::new(leaves.into_iter().map(|leaf| (Occur::Should, leaf)).collect()))
}

/// The leaves of a disjunction, or false when some level is a boolean query but not a disjunction.
fn collect_disjuncts(query: &dyn Query, leaves: &mut Vec<Box<dyn Query>>) -> bool {
    if !query.is::<BooleanQuery>() {
        leaves.push(query.box_clone());
        return true;
    }
    let Some(clauses) = disjuncts(query) else {
        return false;
    };
    clauses.iter().all(|(_, clause)| collect_disjuncts(clause.as_ref(), leaves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::query::TermQuery;
    use tantivy::schema::{IndexRecordOption, Schema, TEXT};
    use tantivy::Term;

    fn term(field: tantivy::schema::Field, text: &str) -> Box<dyn Query> {
        Box::new(TermQuery::new(Term::from_field_text(field, text), IndexRecordOption::WithFreqs))
    }

    #[test]
    fn nested_disjunctions_become_one() {
        let mut builder = Schema::builder();
        let title = builder.add_text_field("title", TEXT);
        let text = builder.add_text_field("text", TEXT);
        let nested: Box<dyn Query> = Box::new(BooleanQuery::new(vec![
            (Occur::Should, Box::new(BooleanQuery::new(vec![(Occur::Should, term(title, "a")), (Occur::Should, term(text, "a"))]))),
            (Occur::Should, Box::new(BooleanQuery::new(vec![(Occur::Should, term(title, "b")), (Occur::Should, term(text, "b"))]))),
        ]));
        let flat = flatten_disjunction(nested);
        let boolean = flat.downcast_ref::<BooleanQuery>().expect("a boolean query");
        assert_eq!(boolean.clauses().len(), 4);
        assert!(boolean.clauses().iter().all(|(occur, clause)| *occur == Occur::Should && clause.is::<TermQuery>()));
    }

    #[test]
    fn a_required_clause_keeps_the_shape() {
        let mut builder = Schema::builder();
        let text = builder.add_text_field("text", TEXT);
        let query: Box<dyn Query> = Box::new(BooleanQuery::new(vec![(Occur::Must, term(text, "a")), (Occur::Should, term(text, "b"))]));
        let kept = flatten_disjunction(query);
        let boolean = kept.downcast_ref::<BooleanQuery>().unwrap();
        assert_eq!(boolean.clauses()[0].0, Occur::Must);
    }
}
