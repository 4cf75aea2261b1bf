/** What `TaskCases` files: an entry that names its case. */
interface Named {
  ref: { case?: string };
}

/**
 * The entries of one spec x criterion of a run (its cases, or its case x criterion pairs), found by task, then by case
 * (`''` for none: no case and the case `''` are one), in one Map a criterion. A task most often holds one case (a
 * case's workup names its task, or its own id is the task): that entry is the Map's value, and a Map of cases is made
 * only for a task that holds several. A Map of cases for each task (10,000 tasks a criterion, three criteria, four
 * indexes a comparison) was most of a comparison's garbage.
 */
export class TaskCases<T extends Named> {
  private readonly byTask = new Map<string, T | Map<string, T>>();

  get(theCase: string | undefined, task: string): T | undefined {
    const found = this.byTask.get(task);
    if (found === undefined) return undefined;
    if (found instanceof Map) return found.get(theCase ?? '');
    return (found.ref.case ?? '') === (theCase ?? '') ? found : undefined;
  }

  /** Files `entry` under its case and `task`, in place of the entry already there. */
  set(task: string, entry: T): void {
    const found = this.byTask.get(task);
    const key = entry.ref.case ?? '';
    if (found instanceof Map) found.set(key, entry);
    else if (found === undefined || (found.ref.case ?? '') === key) this.byTask.set(task, entry);
    else
      this.byTask.set(
        task,
        new Map([
          [found.ref.case ?? '', found],
          [key, entry],
        ]),
      );
  }

  delete(theCase: string | undefined, task: string): void {
    const found = this.byTask.get(task);
    if (found instanceof Map) found.delete(theCase ?? '');
    else if (found !== undefined && (found.ref.case ?? '') === (theCase ?? '')) this.byTask.delete(task);
  }
}
