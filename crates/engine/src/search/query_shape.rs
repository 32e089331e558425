//! Reshaping a parsed query without changing what it matches or how it scores.
//!
//! Tantivy's parser turns `a b` over the title and text fields into a disjunction of
//! per-term disjunctions ((title:a OR text:a) OR (title:b OR text:b)). The sum of sums is the
//! same score as one flat disjunction of the four term queries, but only a flat disjunction of
//! term queries lets tantivy skip blocks that cannot reach the top k (block-max WAND); the nested
//! form scores every match.

use tantivy::query::{BooleanQuery, Occur, Query};

/// One flat disjunction when the query is disjunctions all the way down; otherwise unchanged.
pub fn flatten_disjunction(query: Box<dyn Query>) -> Box<dyn Query> {
    let mut leaves = Vec::new();
    if !collect_disjuncts(query.as_ref(), &mut leaves) || leaves.len() < 2 {
        return query;
    }
    Box::new(BooleanQuery::new(leaves.into_iter().map(|leaf| (Occur::Should, leaf)).collect()))
}

/// The leaves of a disjunction, or false when some level is not a pure disjunction.
fn collect_disjuncts(query: &dyn Query, leaves: &mut Vec<Box<dyn Query>>) -> bool {
    let Some(boolean) = query.downcast_ref::<BooleanQuery>() else {
        leaves.push(query.box_clone());
        return true;
    };
    if boolean.clauses().is_empty() || boolean.clauses().iter().any(|(occur, _)| *occur != Occur::Should) {
        return false;
    }
    boolean.clauses().iter().all(|(_, clause)| collect_disjuncts(clause.as_ref(), leaves))
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
