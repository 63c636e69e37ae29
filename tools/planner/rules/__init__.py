"""The planner's rule families, one module each; every rule reads and updates a PlanState."""
