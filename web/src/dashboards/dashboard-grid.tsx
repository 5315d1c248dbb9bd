// The tiles on react-grid-layout's 12-column grid: fixed when viewing (stacked one under another on a
// phone), dragged and resized by their header and corner when editing; the new places go back through
// onLayout.
import { GridLayout, useContainerWidth, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import type { ReactNode } from 'react';

export interface Place {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

// Narrower than this, a tile of a third of 12 columns is a few words wide: the tiles stack.
const STACK_BELOW = 640;

/** The tiles one under another in reading order (by row, then column), each the whole width and its own height. */
function stacked(places: Place[]): Layout {
  let y = 0;
  return [...places]
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map((p) => {
      const item = { i: p.id, x: 0, y, w: 12, h: p.h };
      y += p.h;
      return item;
    });
}

export function DashboardGrid({ places, editing, onLayout, children }: { places: Place[]; editing: boolean; onLayout: (places: Place[]) => void; children: (id: string) => ReactNode }) {
  const { width, containerRef, mounted } = useContainerWidth();
  // Viewing only: editing keeps the grid as it is saved (nothing stacked is ever written back).
  const layout: Layout = !editing && width < STACK_BELOW ? stacked(places) : places.map((p) => ({ i: p.id, x: p.x, y: p.y, w: p.w, h: p.h }));
  return (
    <div ref={containerRef} className={editing ? 'dashboard-grid editing' : 'dashboard-grid'}>
      {mounted && (
        <GridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: 12, rowHeight: 60 }}
          dragConfig={{ enabled: editing, handle: '.tile-drag' }}
          resizeConfig={{ enabled: editing }}
          onLayoutChange={(l) => editing && onLayout(l.map((i) => ({ id: i.i, x: i.x, y: i.y, w: i.w, h: i.h })))}
        >
          {places.map((p) => (
            <div key={p.id} className="grid-tile" data-tile-id={p.id}>
              {editing && (
                <div className="tile-drag" title="Drag to move">
                  ⠿ Move
                </div>
              )}
              {children(p.id)}
            </div>
          ))}
        </GridLayout>
      )}
    </div>
  );
}
