import json,re,os,random
def code_of(fn):
    t=open('files/'+fn,errors='ignore').read()
    if fn.endswith('.ipynb'):
        try:
            nb=json.loads(t)
            cells=nb.get('cells') or [c for w in nb.get('worksheets',[]) for c in w.get('cells',[])]
            return '\n'.join(''.join(c.get('source') or c.get('input') or []) if isinstance(c.get('source',c.get('input')),list) else (c.get('source') or c.get('input') or '') for c in cells if c.get('cell_type')=='code')
        except Exception: return ''
    return t
FIT=re.compile(r'\.fit\(|\.fit_generator\(|\bxgb\.train\(|\blgb\.train\(|\blightgbm\.train\(|cross_val_score|cross_validate\(|GridSearchCV|RandomizedSearchCV|\.train\(')
SPLIT=re.compile(r'train_test_split|KFold|StratifiedKFold|GroupKFold|TimeSeriesSplit|cross_val|cv\s*=|validation_split|validation_data|X_test|x_test|X_val|x_val|X_valid|test_size|\btest\b\s*=|\bvalid\w*\s*=|iloc\[:\s*-|\[:\s*train_size|split')
METRIC=re.compile(r'accuracy_score|r2_score|mean_squared_error|mean_absolute|f1_score|roc_auc|precision_score|recall_score|classification_report|confusion_matrix|\.score\(|log_loss|rmse|mape|\.evaluate\(|cross_val_score|best_score_|mean_squared_log_error|auc\(')
man=json.load(open('manifest.json'))
c=[]
for m in man:
    s=code_of(m['file'])
    if FIT.search(s) and SPLIT.search(s) and METRIC.search(s): c.append(m['file'])
c=sorted(c)
open('candidates.txt','w').write('\n'.join(c)+'\n')
print(len(c))
